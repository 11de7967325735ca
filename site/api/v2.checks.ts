/**
 * Checks specific to the API v2 pages (site/docs/v2), on top of the shared page checks in
 * tooling/pages.ts: every endpoint has a copyable http and curl request, requests carry the token
 * and handle the certificate, every error code has its own heading with the right status, and the
 * pages keep a clean h2/h3 outline. Each function returns "file:line message" problems.
 */
import path from 'node:path';
import {loadApi, operations} from './tooling/documents';
import {codeBlocks, tables, withoutCode, type DocPage} from './tooling/markdown';
import {curlRequests, parseHttp, shellWords} from './tooling/requests';

const rel = (page: DocPage) => `docs/${page.id}${path.extname(page.file)}`;

/** The error codes the v2 description lists in `x-error-codes`. */
export type ErrorCodeEntry = {code: string; meaning: string; status?: number; transport?: string};

export function errorCodes(): ErrorCodeEntry[] {
  return ((loadApi('v2') as unknown as {'x-error-codes'?: ErrorCodeEntry[]})['x-error-codes'] ?? []);
}

/** Requests that carry no token header: user creation, and the WebSocket upgrade (its token goes in a message). */
const PUBLIC = new Set(['POST /api/user', 'GET /api/ws']);

/** Every v2 operation must appear on some v2 page both as an ```http request and as a curl command. */
export function missingRequests(pages: DocPage[]): string[] {
  const http = new Set<string>();
  const curl = new Set<string>();
  for (const page of pages.filter((p) => p.id.startsWith('v2/'))) {
    for (const block of codeBlocks(page.source)) {
      if (block.lang === 'http') {
        const msg = parseHttp(block.value);
        if (msg?.kind === 'request') http.add(`${msg.method} ${msg.path}`);
      } else if (block.lang === 'bash') {
        for (const req of curlRequests(block.value)) curl.add(`${req.method} ${req.path}`);
      }
    }
  }
  const missing: string[] = [];
  for (const op of operations('v2')) {
    const id = `${op.method} ${op.path}`;
    if (!http.has(id)) missing.push(`${id} has no \`\`\`http request on the v2 pages`);
    if (!curl.has(id)) missing.push(`${id} has no curl command on the v2 pages`);
  }
  return missing;
}

/**
 * Requests on v2 pages must send the bearer token (except user creation), and curl must handle the
 * certificate: `--insecure`/`-k` only together with `--pinnedpubkey`, never alone.
 */
export function requestHygieneProblems(pages: DocPage[]): {problems: string[]; checked: number} {
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages.filter((p) => p.id.startsWith('v2/'))) {
    for (const block of codeBlocks(page.source)) {
      const where = `${rel(page)}:${block.line}`;
      if (block.lang === 'http') {
        const msg = parseHttp(block.value);
        if (msg?.kind !== 'request') continue;
        checked++;
        const id = `${msg.method} ${msg.path}`;
        const auth = msg.headers['authorization'];
        if (!PUBLIC.has(id) && !/^Bearer [A-F0-9]{32}$/.test(auth ?? '')) {
          problems.push(`${where} ${id} needs an "Authorization: Bearer <32 hex>" header`);
        }
        if (msg.body && !/json/.test(msg.headers['content-type'] ?? '')) {
          problems.push(`${where} ${id} has a body but no "Content-Type: application/json"`);
        }
      } else if (block.lang === 'bash') {
        const joined = block.value.replace(/\\\r?\n/g, ' ');
        for (const line of joined.split('\n')) {
          const words = shellWords(line);
          const start = words.indexOf('curl');
          if (start < 0) continue;
          const args = words.slice(start + 1);
          const url = args.find((w) => /^https:\/\//.test(w));
          if (!url) continue;
          checked++;
          const insecure = args.includes('--insecure') || args.includes('-k');
          const pinned = args.includes('--pinnedpubkey');
          const cacert = args.includes('--cacert');
          if (insecure && !pinned) problems.push(`${where} curl uses --insecure without --pinnedpubkey`);
          if (!insecure && !pinned && !cacert) problems.push(`${where} curl does not say how it checks the certificate`);
          const method = args[args.indexOf('-X') + 1] ?? 'GET';
          const urlPath = url.replace(/^https:\/\/[^/]+/, '');
          const id = `${args.includes('-X') ? method : 'GET'} ${urlPath}`;
          const headers = args.filter((_, i) => args[i - 1] === '-H' || args[i - 1] === '--header');
          const hasToken = headers.some((h) => /^Authorization: Bearer \S+$/.test(h));
          // A bare GET /api without a token is the documented "is this a v2 device?" probe.
          if (!hasToken && !PUBLIC.has(id) && !(id === 'GET /api' && args.includes('--max-time'))) {
            problems.push(`${where} curl ${id} sends no "Authorization: Bearer" header`);
          }
        }
      }
    }
  }
  return {problems, checked};
}

/** Headings of a page outside code blocks: level, text and line. */
export function headings(source: string): {level: number; text: string; line: number}[] {
  const body = withoutCode(source.replace(/^---\n[\s\S]*?\n---\n/, (fm) => fm.replace(/[^\n]/g, '')));
  return body.split('\n').flatMap((line, i) => {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    return m ? [{level: m[1]!.length, text: m[2]!, line: i + 1}] : [];
  });
}

/** A clean outline: no h1 in the body (the title is the h1), no level deeper than 3, no jump from h1 to h3. */
export function outlineProblems(pages: DocPage[]): string[] {
  const problems: string[] = [];
  for (const page of pages.filter((p) => p.id.startsWith('v2/'))) {
    let seenH2 = false;
    for (const h of headings(page.source)) {
      const where = `${rel(page)}:${h.line}`;
      if (h.level === 1) problems.push(`${where} h1 "${h.text}" in the body; the page title is the h1`);
      if (h.level > 3) problems.push(`${where} h${h.level} "${h.text}" is deeper than the table of contents shows`);
      if (h.level === 3 && !seenH2) problems.push(`${where} h3 "${h.text}" comes before any h2`);
      if (h.level === 2) seenH2 = true;
    }
  }
  return problems;
}

/** Code text of a heading: "json:parameter-invalid-type:&lt;parameter&gt;" → "json:parameter-invalid-type:<parameter>". */
function headingCode(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/`/g, '').trim();
}

/**
 * The error-handling page must give every code of `x-error-codes` its own h3, list it in the
 * overview table with the documented status, and name no code the description lacks.
 */
export function errorPageProblems(page: DocPage, codes = errorCodes()): string[] {
  const problems: string[] = [];
  const where = rel(page);
  const known = new Map(codes.map((c) => [c.code, c]));
  const h3 = headings(page.source).filter((h) => h.level === 3).map((h) => headingCode(h.text));
  for (const c of codes) if (!h3.includes(c.code)) problems.push(`${where} no h3 heading for ${c.code}`);
  for (const code of h3) if (/^[a-z]+:/.test(code) && !known.has(code)) problems.push(`${where} heading ${code} is not in x-error-codes`);
  const overview = tables(page.source).find((t) => /^error code$/i.test(t.header[0] ?? ''));
  if (!overview) return [...problems, `${where} has no table headed "Error code"`];
  const listed = new Map(overview.rows.map((r) => [(r[0] ?? '').replace(/`/g, ''), r[1] ?? '']));
  for (const c of codes) {
    const status = listed.get(c.code);
    if (status === undefined) {
      problems.push(`${where} overview table lacks ${c.code}`);
      continue;
    }
    const expected = c.status ? String(c.status) : c.transport === 'websocket' ? 'WebSocket only' : 'not documented';
    if (!status.startsWith(expected)) problems.push(`${where} overview gives ${c.code} status "${status}", description says "${expected}"`);
  }
  for (const code of listed.keys()) if (!known.has(code)) problems.push(`${where} overview lists ${code}, not in x-error-codes`);
  return problems;
}

/** Error codes quoted anywhere on the v2 pages (in `error` or `message` members, or as inline code) must be known. */
export function unknownErrorCodes(pages: DocPage[], codes = errorCodes()): string[] {
  const patterns = codes.map((c) => new RegExp(`^${c.code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('<parameter>', '[A-Za-z0-9_]+')}$`));
  // A parameterised code may also be named without its parameter, as a family: `json:parameter-missing`.
  const families = codes.filter((c) => c.code.endsWith(':<parameter>')).map((c) => c.code.slice(0, -':<parameter>'.length));
  const known = (code: string) => patterns.some((p) => p.test(code)) || codes.some((c) => c.code === code) || families.includes(code);
  const problems: string[] = [];
  for (const page of pages.filter((p) => p.id.startsWith('v2/'))) {
    const lines = page.source.split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(/(?:`|"error":\s*"|"message":\s*"|^)((?:request|json|user|telegram):[a-z-]+(?::(?:<parameter>|[A-Za-z0-9_]+))?)/g)) {
        if (!known(m[1]!)) problems.push(`${rel(page)}:${i + 1} unknown error code ${m[1]}`);
      }
    });
  }
  return problems;
}
