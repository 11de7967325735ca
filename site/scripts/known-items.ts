/**
 * The generated known-item sets of search:eval (issue 37), made by rule, never picked by hand:
 *
 * - `identifiers`: every property, parameter, path and error code the API descriptions in
 *   site/api name (OpenAPI v1 and v2, AsyncAPI), each → the sections of the built site that
 *   define it: a section whose heading names it (`### cloud_enabled`, `## Reboot: PUT
 *   /api/system/reboot`, `### \`user:unauthorized\``) or whose table has a row that starts with it
 *   (the field tables), or, for a path, a table cell giving its method and path. An identifier
 *   that no section defines is left out (counted in `skipped`). Names without a separator
 *   (`serial`, `mode`, `type`) are the set `plain-names`, reported apart: as a one-word query they
 *   are as much an English word as a field.
 * - `headings`: every heading (the page title, h1, and h2..h6) of every docs page → its own
 *   section (a heading text that several pages share, "Errors", accepts any of them).
 *
 * A query of these sets is answered at rank k when the k-th hit is one of its sections (page and
 * anchor), not merely its page.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {parse} from 'yaml';
import type {EvalQuery} from './search-eval.ts';

const DESCRIPTIONS = ['v1.openapi.yaml', 'v2.openapi.yaml', 'websocket.asyncapi.yaml'];

/** Identifier-shaped: snake_case, dotted, colon, path-like or hyphenated (`X-Api-Version`). */
const IDENTIFIER = /[_:/.-]/;

/** `&lt;parameter>` → `<parameter>`, tags removed, spaces collapsed. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\u200b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every name the descriptions give a reader to type: properties, parameters, paths, error codes, message types. */
export function apiIdentifiers(apiDir: string): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, key?: string): void => {
    if (Array.isArray(node)) {
      node.forEach((n) => walk(n));
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (key === 'properties') {
      for (const name of Object.keys(o)) found.add(name);
    }
    if (key === 'paths' || key === 'channels') {
      for (const path of Object.keys(o)) if (path.startsWith('/')) found.add(path);
    }
    // a parameter (`in: header`), and a message's `type` constant (`authorization_requested`)
    if (typeof o.name === 'string' && typeof o.in === 'string') found.add(o.name);
    if (key === 'type' && typeof o.const === 'string') found.add(o.const);
    if (key === 'x-error-codes') return;
    for (const [k, v] of Object.entries(o)) walk(v, k);
  };
  for (const file of DESCRIPTIONS) {
    const doc = parse(readFileSync(join(apiDir, file), 'utf8')) as Record<string, unknown>;
    walk(doc);
    for (const e of (doc['x-error-codes'] as {code?: string}[] | undefined) ?? []) if (e.code) found.add(e.code);
  }
  return [...found].filter((id) => id.length >= 3).sort();
}

interface Section {
  /** `/docs/x` or `/docs/x#anchor` */
  target: string;
  heading: string | null;
  /** Table rows' first cells and method-and-path cells. */
  cells: string[];
}

/** The built docs pages' sections: each heading's text and the table cells under it. */
export function builtSections(buildDir: string): Section[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.html')) files.push(p);
    }
  };
  walk(join(buildDir, 'docs'));
  const sections: Section[] = [];
  for (const file of files.sort()) {
    const html = readFileSync(file, 'utf8');
    const article = /<article[\s>][\s\S]*<\/article>/.exec(html)?.[0];
    if (!article || !/<h1[\s>]/.test(article)) continue;
    const page = '/' + relative(buildDir, file).replace(/\.html$/, '').replace(/\/index$/, '');
    // (the page's own section: its title, the h1, is its heading)
    const title = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(article)?.[1];
    let current: Section = {target: page, heading: title === undefined ? null : text(title), cells: []};
    sections.push(current);
    const token = /<h([2-6])\b[^>]*\bid="?([^"\s>]+)"?[^>]*>([\s\S]*?)<\/h\1>|<tr>([\s\S]*?)(?=<tr>|<\/tbody>|<\/table>)/g;
    for (let m = token.exec(article); m; m = token.exec(article)) {
      if (m[1]) {
        current = {target: `${page}#${m[2]}`, heading: text(m[3]!.replace(/<a [^>]*class="?hash-link[\s\S]*?<\/a>/, '')), cells: []};
        sections.push(current);
      } else {
        const cells = m[4]!.split(/<t[dh]\b[^>]*>/).slice(1);
        const first = /^<code>([^<]*)<\/code>\s*$/.exec(cells[0] ?? '');
        if (first) current.cells.push(text(first[1]!));
        for (const cell of cells) {
          const call = /^<code>(?:GET|PUT|POST|DELETE|PATCH) ([^<\s]+)<\/code>/.exec(cell);
          if (call) current.cells.push(text(call[1]!));
        }
      }
    }
  }
  return sections;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a heading names the identifier as a whole token (not `power_w` in `power_l1_w`), in any case (`Batteries`). */
function headingNames(heading: string, id: string): boolean {
  return new RegExp(`(^|[\\s\`(:,])${escape(id)}($|[\\s\`),:])`, 'i').test(heading);
}

export function knownItems(apiDir: string, buildDir: string): {queries: EvalQuery[]; skipped: string[]} {
  const sections = builtSections(buildDir);
  const queries: EvalQuery[] = [];
  const skipped: string[] = [];
  for (const id of apiIdentifiers(apiDir)) {
    const targets = sections.filter((s) => (s.heading !== null && headingNames(s.heading, id)) || s.cells.includes(id)).map((s) => s.target);
    if (targets.length === 0) skipped.push(id);
    else queries.push({q: id, pages: [...new Set(targets.map((t) => t.split('#')[0]!))], anchors: [...new Set(targets)], set: IDENTIFIER.test(id) ? 'identifiers' : 'plain-names'});
  }
  const byHeading = new Map<string, string[]>();
  for (const s of sections) if (s.heading) byHeading.set(s.heading, [...(byHeading.get(s.heading) ?? []), s.target]);
  for (const [heading, targets] of byHeading) {
    queries.push({q: heading, pages: [...new Set(targets.map((t) => t.split('#')[0]!))], anchors: targets, set: 'headings'});
  }
  return {queries, skipped};
}
