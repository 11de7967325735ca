/**
 * The early search box (src/client/shell.inline.js) as inlined in every page's head: block
 * comments, comment lines and indentation stripped (the source is written for that: no trailing
 * comments, no code that needs its line breaks), the site's search page and texts filled in.
 */
import {readFileSync} from 'node:fs';
import {shellDefaultTexts} from './early-config.ts';
import type {EarlySearchConfig} from './early-types.ts';

let source: string | undefined;

export interface ShellTexts {
  /** The search page's path with the baseUrl ('' when the site has none: Enter does nothing). */
  searchPage: string;
  placeholder: string;
  cancel: string;
  /** The status line while the search loads, and when its code could not be loaded. */
  loading?: string;
  failed?: string;
  /** Local mode: the module that answers in the box (early-search.ts), and its configuration. */
  early?: {url: string; config: EarlySearchConfig} | null;
}

/** A string as a JavaScript string literal that is safe inside an inline <script>. */
function literal(value: string): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A value as a JavaScript literal that is safe inside an inline <script>. */
function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function inlineShellScript({searchPage, placeholder, cancel, loading, failed, early}: ShellTexts): string {
  const defaults = shellDefaultTexts('en');
  source ??= readFileSync(new URL('../src/client/shell.inline.js', import.meta.url), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
  return source
    .replace(
      '__SEARCH_TEXTS__',
      () =>
        `{page:${literal(searchPage)},placeholder:${literal(placeholder)},cancel:${literal(cancel)},` +
        `loading:${literal(loading ?? defaults['theme.SearchShell.loading']!)},failed:${literal(failed ?? defaults['theme.SearchShell.failed']!)},` +
        `early:${early ? safeJson(early) : 'null'}}`,
    );
}
