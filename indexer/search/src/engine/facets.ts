/**
 * Facets and filters: Algolia's facetFilters (`attr:value`, `-attr:value`, OR inside nested
 * lists) compiled into a test of what a record's facets are.
 */
import type {SearchRecord} from '../record/constants.ts';

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
