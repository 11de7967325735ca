/**
 * The index's synonyms as `push --synonyms FILE` manages them: the file's list is the whole set
 * (a synonym on the index that the file no longer has is removed). Compared like the records:
 * by objectID and content, so that a rerun with nothing changed writes nothing, and written to
 * the temporary index before it is moved over the live one (atomic with the records).
 */
import type {Synonym} from 'docs-search';
import type {Calls} from './calls.ts';
import type {PublishStep} from './options.ts';

/** What an index holds of a synonym, in the form we compare (Algolia adds `_highlightResult`). */
function comparable(s: Partial<Synonym> & Record<string, unknown>): string {
  return JSON.stringify({
    objectID: s.objectID,
    type: String(s.type ?? '').toLowerCase(),
    ...(s.input !== undefined ? {input: s.input} : {}),
    synonyms: s.synonyms ?? [],
  });
}

export interface SynonymPlan {
  /** Synonyms to save: new or changed ones (every one when `replace`). */
  save: Synonym[];
  /** Synonyms on the index that the file does not have. */
  removed: string[];
  /** Save with replaceExistingSynonyms (removes the others in the same call). */
  replace: boolean;
  unchanged: number;
}

/** The difference between an index's synonyms and the file's (`full`: send every one, replacing). */
export function planSynonyms(current: readonly Record<string, unknown>[], wanted: readonly Synonym[], full = false): SynonymPlan {
  const have = new Map(current.map((s) => [String(s.objectID), comparable(s)]));
  const save: Synonym[] = [];
  let unchanged = 0;
  for (const s of wanted) {
    if (have.get(s.objectID) === comparable(s as Synonym & Record<string, unknown>)) unchanged += 1;
    else save.push(s);
  }
  const ids = new Set(wanted.map((s) => s.objectID));
  const removed = [...have.keys()].filter((id) => !ids.has(id));
  const replace = full || removed.length > 0;
  return {save: replace ? [...wanted] : save, removed, replace, unchanged: replace ? 0 : unchanged};
}

/** Nothing to write. */
export function synonymsUnchanged(plan: SynonymPlan): boolean {
  return plan.removed.length === 0 && plan.save.length === 0;
}

/** An index's synonyms (every page of them): the synonyms step's read. */
export function readSynonyms({client, withRetries}: Calls, step: PublishStep, indexName: string): Promise<Record<string, unknown>[]> {
  return withRetries(step, async () => {
    const all: Record<string, unknown>[] = [];
    for (let page = 0; ; page++) {
      const found = await client.searchSynonyms({indexName, searchSynonymsParams: {query: '', page, hitsPerPage: 1000}});
      all.push(...(found.hits as unknown as Record<string, unknown>[]));
      if (found.hits.length < 1000) return all;
    }
  });
}
