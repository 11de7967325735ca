/**
 * Facets and filters: Algolia's facetFilters (`attr:value`, `-attr:value`, OR inside nested
 * lists) compiled into a test of what a record's facets are.
 */
import {RECORD_TYPES, type RecordType, type SearchRecord} from '../record/constants.ts';
import type {LocalSearchEngine} from './search.ts';

export type FacetFilters = (string | string[])[];

/** Parses `attr:value` / `-attr:value`. */
export function parseFilter(f: string): {attr: string; value: string; negate: boolean} {
  const negate = f.startsWith('-');
  const body = negate ? f.slice(1) : f;
  const colon = body.indexOf(':');
  return {attr: body.slice(0, colon).trim(), value: body.slice(colon + 1).trim().replace(/^"(.*)"$/, '$1'), negate};
}

/** What facets and filters read of a record. */
export type FacetRecord = Pick<SearchRecord, 'language' | 'docusaurus_tag' | 'version' | 'type'>;

export function facetValue(r: FacetRecord, attr: string): string | undefined {
  switch (attr) {
    case 'language':
    case 'lang':
      return r.language;
    case 'docusaurus_tag':
      return r.docusaurus_tag;
    case 'version':
      return r.version;
    case 'type':
      return r.type;
    default:
      return undefined;
  }
}

/** Compiles Algolia facetFilters (AND of items, OR inside nested lists) into a predicate. */
export function compileFacetFilters(filters: FacetFilters | undefined): (r: FacetRecord) => boolean {
  if (!filters || filters.length === 0) return () => true;
  const one = (f: string) => {
    const {attr, value, negate} = parseFilter(f);
    return (r: FacetRecord) => (facetValue(r, attr) === value) !== negate;
  };
  const groups = filters.map((f) => (Array.isArray(f) ? f.map(one) : [one(f)])).filter((g) => g.length > 0);
  return (r) => groups.every((g) => g.some((test) => test(r)));
}

/** The record types a query's filters let a hit show (null: any), from their `type` filters. */
export function typeTestFor(filters: FacetFilters | undefined): ((type: RecordType) => boolean) | null {
  const groups = (filters ?? []).filter((f) => (Array.isArray(f) ? f : [f]).every((item) => parseFilter(item).attr === 'type'));
  if (groups.length === 0) return null;
  const keep = compileFacetFilters(groups);
  return (type) => keep({language: '', docusaurus_tag: '', type});
}

/**
 * Per section, 1 when the filters let it through. Facet values are a page's and a record's type:
 * a section passes when one of its records does (the hit then shows such a record, see
 * bestRecord). One test per (page, types).
 */
export function sectionsPassing(engine: LocalSearchEngine, filters: FacetFilters): Uint8Array {
  const keep = compileFacetFilters(filters);
  const memo = new Map<number, number>();
  return Uint8Array.from(engine.lead, (_, s) => {
    const types = recordTypes(engine, s);
    const key = engine.pageOf[s]! * 256 + types;
    let v = memo.get(key);
    if (v === undefined) {
      const facets = engine.pageFacets[engine.pageOf[s]!]!;
      v = 0;
      for (let t = 0; t < RECORD_TYPES.length && v === 0; t++) if (types & (1 << t) && keep({...facets, type: RECORD_TYPES[t]!})) v = 1;
      memo.set(key, v);
    }
    return v;
  });
}

/** The types of a section's records, as bits of RECORD_TYPES (not loaded yet: its lead's and content). */
function recordTypes(engine: LocalSearchEngine, section: number): number {
  const members = engine.lead[section] === -1 ? undefined : engine.members[section];
  if (!members) return (1 << engine.leadType[section]!) | (1 << RECORD_TYPES.indexOf('content'));
  let types = 0;
  for (const i of members) types |= 1 << RECORD_TYPES.indexOf(engine.records[i]!.type);
  return types;
}
