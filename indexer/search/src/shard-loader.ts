/**
 * The browser's reader of a sharded index (format 3, see README.md), split from client.ts: the
 * client imports this module (and so the shard decoding of engine/shards.ts) only when the
 * index URL answers with a manifest, so the code a one-file index needs stays small.
 */
import {normalizeFacetFilters, type QueryParams} from './engine/answer.ts';
import {ShardedEngine} from './engine/sharded-engine.ts';
import {addTermsFile, chunkStarts, decodeRecords, decodeVocab, headsFile, recordsFile, sectionTable, shardKey, termsFile, typoLengths, typoShardKeys, vocabFile, type ShardManifest} from './engine/shards.ts';
import {synonymsOf} from './engine/index-file.ts';
import {tokenizeQuery} from './engine/text.ts';

/**
 * A sharded index (format 3) in the browser: fetches the terms files of the words typed, the
 * records of the hits asked for and, when the engine forgives a word's typos, the vocabulary
 * files of its lengths and the terms files of the words a typo away; each file once per page
 * load (concurrent asks share a fetch).
 */
export class ShardLoader {
  readonly engine: ShardedEngine;
  private readonly shards: Set<string>;
  private readonly heads: Set<string>;
  /** The last word length with a vocabulary file (0: none). */
  private readonly vocab: number;
  /** The vocabulary's words, per length fetched. */
  private readonly words = new Map<number, readonly string[]>();
  /** Per word, the fetch of the terms files its typos find; and the words whose fetch is done. */
  private readonly typosFetched = new Map<string, Promise<unknown>>();
  private readonly typosDone = new Set<string>();
  private readonly starts: number[];
  private readonly files = new Map<string, Promise<void>>();

  constructor(
    private readonly manifest: ShardManifest,
    private readonly dir: string,
    private readonly getJson: (url: string) => Promise<unknown>,
    /** Files the client started fetching while this module loaded (by file name). */
    private readonly prefetched: Map<string, Promise<unknown>> = new Map(),
  ) {
    this.engine = new ShardedEngine(sectionTable(manifest)).useSynonyms(synonymsOf(manifest));
    this.shards = new Set(manifest.shards);
    this.heads = new Set(manifest.heads);
    this.vocab = typeof manifest.vocab === 'number' ? manifest.vocab : 0;
    this.starts = chunkStarts(manifest);
  }

  private load(file: string, use: (json: unknown) => void): Promise<void> {
    let p = this.files.get(file);
    if (!p) {
      const early = this.prefetched.get(file);
      this.prefetched.delete(file);
      p = (early ?? this.getJson(`${this.dir}${file}?v=${this.manifest.version}`)).then(use);
      // A failed file is fetched again by the next search.
      p.catch(() => this.files.delete(file));
      this.files.set(file, p);
    }
    return p;
  }

  /**
   * Fetches the terms files of every word within `word`'s typos (through the vocabulary files of
   * its lengths), once per word.
   */
  private typos(word: string): Promise<unknown> {
    let p = this.typosFetched.get(word);
    if (!p) {
      const lengths = typoLengths(word, this.vocab);
      const vocab = lengths.map((n) => this.load(vocabFile(n), (json) => void this.words.set(n, decodeVocab(json))));
      p = Promise.all(vocab).then(() => {
        const keys = typoShardKeys(word, (n) => this.words.get(n) ?? []);
        const addTerms = (json: unknown) => addTermsFile(this.engine, json);
        return Promise.all([...keys].filter((key) => this.shards.has(key)).map((key) => this.load(termsFile(key), addTerms)));
      }).then(() => this.typosDone.add(word));
      p.catch(() => this.typosFetched.delete(word));
      this.typosFetched.set(word, p);
    }
    return p;
  }

  /**
   * Fetches what answering `params` reads: the words' terms files; then, until the answer no
   * longer changes, the terms of the words their typos find (when the engine forgives them) and
   * the records of the hits.
   */
  async prepare(params: QueryParams): Promise<void> {
    const query = String(params.query ?? '').slice(0, 512);
    const words = tokenizeQuery(query).slice(0, 30);
    const prefixLast = !/\s$/.test(query);
    const wanted: Promise<void>[] = [];
    const addTerms = (json: unknown) => addTermsFile(this.engine, json);
    const terms = (key: string) => {
      if (this.shards.has(key)) wanted.push(this.load(termsFile(key), addTerms));
    };
    words.forEach((word, i) => {
      terms(shardKey(word));
      // One letter being typed: the headings of its most frequent words.
      if (Array.from(word).length === 1 && prefixLast && i === words.length - 1 && this.heads.has(word)) wanted.push(this.load(headsFile(word), addTerms));
    });
    // and the words the query's synonyms find
    for (const word of this.engine.synonymWordsOf(query)) terms(shardKey(word));
    await Promise.all(wanted);
    const hitsPerPage = Math.max(0, Math.min(1000, Number(params.hitsPerPage ?? 20)));
    const page = Math.max(0, Number(params.page ?? 0));
    const filters = normalizeFacetFilters(params.facetFilters);
    // The words its typos find change the hits; records change which record stands for a hit,
    // and so the order (a section found to hold the words only in different paragraphs moves
    // down): until stable.
    for (let round = 0; round < 10; round++) {
      const top = this.engine.topSections(query, filters, (page + 1) * hitsPerPage);
      const typos = top.typoWords.filter((word) => !this.typosDone.has(word));
      if (typos.length > 0) {
        await Promise.all(typos.map((word) => this.typos(word)));
        continue;
      }
      if (hitsPerPage === 0) return;
      const sections = top.sections.slice(page * hitsPerPage);
      const missing = new Set(sections.filter((s) => !this.engine.hasRecords(s)).map((s) => this.chunkOf(s)));
      if (missing.size === 0) return;
      await Promise.all([...missing].map((c) => this.load(recordsFile(c), (json) => this.engine.addRecords(this.starts[c]!, decodeRecords(json)))));
    }
  }

  /** The records file holding a section (binary search in the chunk starts). */
  private chunkOf(section: number): number {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= section) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
