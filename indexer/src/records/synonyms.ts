/**
 * The synonyms file (one list for both search modes): read and checked here, then written into
 * the local index (writeLocalIndex) and sent to Algolia as the index's synonyms (push
 * --synonyms). Its shape is Algolia's: see docs-search's engine/synonyms.ts.
 *
 *   {"synonyms": [{"objectID": "…", "type": "synonym", "synonyms": ["…", "…"]},
 *                 {"objectID": "…", "type": "oneWaySynonym", "input": "…", "synonyms": ["…"]}]}
 *
 * (a bare list is accepted too; other top-level keys, such as a comment, are ignored).
 */
import {readFile} from 'node:fs/promises';
import {checkSynonyms, type Synonym} from 'docs-search';
import {UsageError} from '../errors.ts';

/** Reads and checks a synonyms file; any problem is a one-line UsageError naming the file. */
export async function readSynonymsFile(file: string): Promise<Synonym[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `synonyms file ${file} does not exist` : `cannot read the synonyms file ${file} (${code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`synonyms file ${file} is not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const list = Array.isArray(json) ? json : (json as {synonyms?: unknown} | null)?.synonyms;
  try {
    return checkSynonyms(list);
  } catch (error) {
    throw new UsageError(`synonyms file ${file}: ${(error as Error).message}`);
  }
}
