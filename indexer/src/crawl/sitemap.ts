/**
 * Sitemaps: a sitemap or sitemap index read with an XML parser, its size limit, and the
 * weight.pageRank of each page from its `<priority>`.
 */
import {XMLParser} from 'fast-xml-parser';
import {recordUrlFor, type SiteUrls} from '../extract/extract.ts';
import {orderKey} from './urls.ts';

/**
 * Sitemaps larger than this are not read (skipped as too-large). The protocol allows 50 MB, but
 * parsing that much took 580 MB of memory and 8.5 s (308,000 URLs, measured 2026-11-27); 16 MB
 * holds about 100,000 URLs, twice the protocol's 50,000 per file (a sitemap index splits more).
 */
export const MAX_SITEMAP_BYTES = 16 * 1024 * 1024;

/** One `<url>` of a sitemap: its location, priority and hreflang alternates. */
export interface SitemapEntry {
  loc: string;
  priority?: number;
  alternates: string[];
}

export interface Sitemap {
  /** `<urlset>` entries. */
  urls: SitemapEntry[];
  /** `<sitemapindex>` entries: further sitemaps. */
  sitemaps: string[];
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Numeric character references (`&#39;`) and HTML's named ones are decoded, not only XML's five.
  htmlEntities: true,
  parseTagValue: false,
  removeNSPrefix: true,
  isArray: (name) => name === 'url' || name === 'sitemap' || name === 'link',
});

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as {'#text': unknown})['#text']);
  return undefined;
}

/** Reads a sitemap or sitemap index with an XML parser (entities decoded); junk gives nothing. */
export function parseSitemap(xml: string): Sitemap {
  let doc: Record<string, unknown>;
  try {
    doc = xmlParser.parse(xml) as Record<string, unknown>;
  } catch {
    return {urls: [], sitemaps: []};
  }
  const urlset = doc.urlset as {url?: Record<string, unknown>[]} | undefined;
  const index = doc.sitemapindex as {sitemap?: Record<string, unknown>[]} | undefined;
  const urls: SitemapEntry[] = [];
  for (const entry of urlset?.url ?? []) {
    const loc = text(entry.loc);
    if (!loc) continue;
    const priority = Number(text(entry.priority));
    const alternates = ((entry.link as Record<string, unknown>[] | undefined) ?? [])
      .filter((link) => link.rel === 'alternate' && typeof link.href === 'string')
      .map((link) => String(link.href));
    urls.push({loc, ...(Number.isFinite(priority) && text(entry.priority) ? {priority} : {}), alternates});
  }
  const sitemaps: string[] = [];
  for (const entry of index?.sitemap ?? []) {
    const loc = text(entry.loc);
    if (loc) sitemaps.push(loc);
  }
  return {urls, sitemaps};
}

/** `<loc>` values of a sitemap or sitemap index. */
export function sitemapLocs(xml: string): string[] {
  const sitemap = parseSitemap(xml);
  return [...sitemap.urls.map((u) => u.loc), ...sitemap.sitemaps];
}

/** weight.pageRank from a sitemap priority: 0.5, the protocol's default (and Docusaurus's), is 0. */
export function rankOfPriority(priority: number | undefined): number | undefined {
  return priority === undefined ? undefined : Math.round((priority - 0.5) * 10);
}

/** Record URL (routed, trailing slash ignored) → pageRank, from sitemap entries below the site's root. */
export function ranksFrom(entries: SitemapEntry[], site: SiteUrls): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const entry of entries) {
    const rank = rankOfPriority(entry.priority);
    if (rank !== undefined) ranks.set(orderKey(recordUrlFor(entry.loc, entry.loc, site)), rank);
  }
  return ranks;
}
