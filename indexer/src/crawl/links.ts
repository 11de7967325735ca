/**
 * What a URL crawl reads from a page besides its records: its links (a meta refresh's target
 * included), canonical link and hreflang alternates (a string scan, no DOM), and which links name assets rather than pages.
 */

/** What the crawl reads from a page besides its records: links, canonical, hreflang alternates. */
export interface PageLinks {
  canonical?: string;
  alternates: string[];
  links: string[];
}

import {refreshUrl} from '../extract/refresh.ts';

const ATTRIBUTE = /([^\s"'=<>/]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g;

export const ASSET = /\.(png|jpe?g|gif|svg|webp|avif|ico|css|js|mjs|map|json|xml|ya?ml|txt|pdf|zip|gz|woff2?|ttf|eot|mp4|webm|mp3)$/i;

function decodeAttribute(value: string): string {
  return value.replace(/&(amp|quot|apos|#39|lt|gt);/g, (_m, name: string) =>
    name === 'amp' ? '&' : name === 'quot' ? '"' : name === 'lt' ? '<' : name === 'gt' ? '>' : "'",
  );
}

/**
 * Links, canonical and alternates of a page, from its `<a>` and `<link>` tags. A string scan:
 * link discovery needs no DOM, and a link it misreads is still checked against the site's scope.
 */
export function pageLinks(html: string): PageLinks {
  const result: PageLinks = {alternates: [], links: []};
  for (const tag of html.matchAll(/<(a|link|meta)\s([^>]*)>/gi)) {
    const attributes = new Map<string, string>();
    for (const m of (tag[2] ?? '').matchAll(ATTRIBUTE)) {
      attributes.set((m[1] ?? '').toLowerCase(), decodeAttribute(m[3] ?? m[4] ?? m[5] ?? ''));
    }
    const name = (tag[1] ?? '').toLowerCase();
    if (name === 'meta') {
      // A redirect page's meta refresh is a link a browser follows (plugin-client-redirects' old paths).
      const refresh = attributes.get('http-equiv')?.toLowerCase() === 'refresh' ? refreshUrl(attributes.get('content') ?? '') : undefined;
      if (refresh !== undefined) result.links.push(refresh);
      continue;
    }
    const href = attributes.get('href');
    if (!href) continue;
    if (name === 'a') result.links.push(href);
    else {
      const rel = (attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('canonical')) result.canonical ??= href;
      else if (rel.includes('alternate') && attributes.has('hreflang')) result.alternates.push(href);
    }
  }
  return result;
}
