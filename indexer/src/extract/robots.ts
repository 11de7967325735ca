/**
 * Robots directives as the standard reads them (Google's and Bing's documentation of the robots
 * meta tag and the `X-Robots-Tag` header, which Algolia's crawler follows too):
 * - names and values are case-insensitive (`<META NAME="ROBOTS" CONTENT="NOINDEX">`);
 * - `none` means `noindex, nofollow`;
 * - several robots metas (or headers) add up: the most restrictive directive wins, so one
 *   `noindex` anywhere keeps the page out whatever another says (`index`);
 * - a directive addressed to one crawler (`<meta name="googlebot">`, or `googlebot: noindex` in
 *   the header) concerns that crawler only and is ignored, except those addressed to this
 *   indexer by its user agent, `docs-indexer`.
 */

/** The user agent this indexer answers to in a per-agent meta or header (also its HTTP User-Agent). */
export const ROBOTS_AGENT = 'docs-indexer';

/** Directives that carry a value after a colon: not a user agent naming the directives after it. */
const VALUED = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

function directiveMeansNoindex(token: string): boolean {
  const directive = token.trim().toLowerCase();
  return directive === 'noindex' || directive === 'none';
}

/** Whether the contents of a page's robots metas (and of metas addressed to this indexer) keep it out of the index. */
export function robotsMetaNoindex(contents: readonly string[]): boolean {
  return contents.some((content) => content.split(',').some(directiveMeansNoindex));
}

/**
 * Whether an `X-Robots-Tag` header (several headers arrive joined by `, `) keeps the page out:
 * a `noindex` or `none` for every crawler, or after `docs-indexer:`. A user agent followed by a
 * colon (`googlebot: noindex, nofollow`) addresses the directives after it, up to the next one.
 */
export function xRobotsTagNoindex(header: string | null | undefined): boolean {
  if (!header) return false;
  let agent: string | undefined;
  for (const raw of header.split(',')) {
    let token = raw.trim();
    const colon = /^([A-Za-z0-9_.-]+)\s*:\s*(.*)$/.exec(token);
    if (colon && !VALUED.has((colon[1] ?? '').toLowerCase())) {
      agent = (colon[1] ?? '').toLowerCase();
      token = colon[2] ?? '';
    }
    if ((agent === undefined || agent === ROBOTS_AGENT) && directiveMeansNoindex(token)) return true;
  }
  return false;
}
