/** Hits of `docs-indexer search` as terminal lines, grouped like the search modal groups them. */
import {decodeEntities, type AlgoliaHit} from 'docs-search';

/** Highlight tags asked of the engine, replaced by terminal bold (or nothing). */
export const PRE = '\u0001';
export const POST = '\u0002';

/** Control characters (ESC, NUL, C1 …) never reach the terminal, whatever an index holds. */
export function safe(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/** Terminal text of a highlighted value: entities decoded, matches bold on a terminal. */
function plain(value: string | undefined, bold: boolean): string {
  return safe(decodeEntities(value ?? '').replace(/\n/g, ' '))
    .replaceAll(PRE, bold ? '\x1b[1m' : '')
    .replaceAll(POST, bold ? '\x1b[22m' : '');
}

export function formatHits(hits: AlgoliaHit[], bold: boolean): string[] {
  const lines: string[] = [];
  let group: string | undefined;
  hits.forEach((hit, i) => {
    const hl = hit._highlightResult as {hierarchy: Record<string, {value: string}>};
    const sn = hit._snippetResult as {hierarchy?: Record<string, {value: string}>; content?: {value: string}} | undefined;
    const lvl0 = plain(hl.hierarchy.lvl0?.value, false);
    if (lvl0 !== group) {
      group = lvl0;
      lines.push(lvl0);
    }
    const path = ['lvl1', 'lvl2', 'lvl3', 'lvl4', 'lvl5', 'lvl6']
      .map((k) => sn?.hierarchy?.[k]?.value ?? hl.hierarchy[k]?.value)
      .filter((v): v is string => Boolean(v))
      .map((v) => plain(v, bold))
      .join(' › ');
    lines.push(`${String(i + 1).padStart(3)}. ${path}`);
    lines.push(`     ${safe(hit.url ?? '')}`);
    if (hit.type === 'content' && sn?.content) lines.push(`     ${plain(sn.content.value, bold)}`);
  });
  return lines;
}
