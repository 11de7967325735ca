/**
 * Reads a one-file index (format 2) while it downloads: the browser's client hands it the file's
 * text as it arrives, and each record is unpacked and its section tokenized and counted as soon
 * as its text is in (see IndexBuilder), so that after the last byte only the postings' weights
 * and the term tree are left to make. packRecords writes every other field before `texts` for
 * this. A file laid out otherwise, a sharded index's manifest or anything unexpected is kept
 * whole and parsed at the end, as before: the engine is always the one the file makes.
 */
import {checkIndexHead, LOCAL_INDEX_FORMAT, RecordUnpacker, synonymsOf, type LocalIndexHead} from './index-file.ts';
import {IndexBuilder, LocalSearchEngine} from './search.ts';

const START = `{"format":${LOCAL_INDEX_FORMAT},`;
const TEXTS = '"texts":[';

export class IndexFileStream {
  /** The file's text so far. */
  private text = '';
  /** Where reading resumes in `text`. */
  private pos = 0;
  private state: 'head' | 'texts' | 'tail' | 'whole' = 'head';
  private head: LocalIndexHead | null = null;
  private unpacker: RecordUnpacker | null = null;
  private builder: IndexBuilder | null = null;

  /** Records read so far (unpacked, and their sections counted once the next one began). */
  get recordsRead(): number {
    return this.unpacker?.count ?? 0;
  }

  /** The next piece of the file's text. */
  push(chunk: string): void {
    this.text += chunk;
    if (this.state === 'head') this.readHead();
    if (this.state === 'texts') this.readTexts();
  }

  /** The engine, or (a file not read as it came) the file's JSON, for the caller to read. */
  end(): {engine: LocalSearchEngine} | {json: unknown} {
    if (this.state === 'tail' && /^\s*\}\s*$/.test(this.text.slice(this.pos))) {
      try {
        this.unpacker!.end();
        return {engine: new LocalSearchEngine(this.builder!).useSynonyms(synonymsOf(this.head!))};
      } catch {
        // (read whole below: the same error as a file parsed at once)
      }
    }
    return {json: JSON.parse(this.text)};
  }

  private whole(): void {
    this.state = 'whole';
    this.head = this.unpacker = this.builder = null;
  }

  private readHead(): void {
    const text = this.text;
    if (text.length < START.length) return;
    if (!text.startsWith(START)) return this.whole();
    const at = text.indexOf(TEXTS, Math.max(0, this.pos - TEXTS.length));
    if (at < 0) {
      this.pos = text.length;
      return;
    }
    try {
      // Every field but the texts, which come last (a quote inside a string is escaped: no
      // string holds `"texts":[`).
      const head: unknown = JSON.parse(`${text.slice(0, at)}"texts":[]}`);
      checkIndexHead(head);
      this.head = head;
      this.unpacker = new RecordUnpacker(head);
      this.builder = new IndexBuilder();
    } catch {
      return this.whole();
    }
    this.pos = at + TEXTS.length;
    this.state = 'texts';
  }

  private readTexts(): void {
    const text = this.text;
    let pos = this.pos;
    try {
      for (;;) {
        while (pos < text.length && (text[pos] === ',' || text[pos] === ' ' || text[pos] === '\n' || text[pos] === '\r' || text[pos] === '\t')) pos++;
        const c = text[pos];
        if (c === undefined) break;
        if (c === ']') {
          pos++;
          this.state = 'tail';
          break;
        }
        let value: string | null;
        if (c === 'n') {
          if (text.length - pos < 4) break;
          if (!text.startsWith('null', pos)) return this.whole();
          value = null;
          pos += 4;
        } else if (c === '"') {
          // the closing quote: one not escaped (after an even number of backslashes)
          let end = pos;
          for (;;) {
            end = text.indexOf('"', end + 1);
            if (end < 0) break;
            let slashes = 0;
            while (text.charCodeAt(end - 1 - slashes) === 92) slashes++;
            if (slashes % 2 === 0) break;
          }
          if (end < 0) break;
          value = JSON.parse(text.slice(pos, end + 1)) as string;
          pos = end + 1;
        } else return this.whole();
        if (this.unpacker!.count >= this.head!.types.length) return this.whole();
        this.builder!.add(this.unpacker!.next(value));
      }
    } catch {
      return this.whole();
    }
    this.pos = pos;
  }
}
