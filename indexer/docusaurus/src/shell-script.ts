/**
 * The early search box (src/client/shell.inline.js) as inlined in every page's head: block
 * comments, comment lines and indentation stripped (the source is written for that: no trailing
 * comments, no code that needs its line breaks), the site's search page and texts filled in.
 */
import {readFileSync} from 'node:fs';

let source: string | undefined;

export interface ShellTexts {
  /** The search page's path with the baseUrl ('' when the site has none: Enter does nothing). */
  searchPage: string;
  placeholder: string;
  cancel: string;
}

/** A string as a JavaScript string literal that is safe inside an inline <script>. */
function literal(value: string): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function inlineShellScript({searchPage, placeholder, cancel}: ShellTexts): string {
  source ??= readFileSync(new URL('../src/client/shell.inline.js', import.meta.url), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
  return source
    .replace('__SEARCH_TEXTS__', () => `{page:${literal(searchPage)},placeholder:${literal(placeholder)},cancel:${literal(cancel)}}`);
}
