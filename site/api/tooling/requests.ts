/**
 * Reading the copyable requests on the pages (```http and ```bash curl blocks) so tests can check
 * them against the API description: the operation must exist and a JSON body must match.
 */
export type PageRequest = {method: string; url: string; path: string; scheme?: string; body?: string};

/** Splits a shell command line into words, honouring single and double quotes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | null = null;
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || current) words.push(current);
      current = '';
      has = false;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      has = true;
    } else {
      current += ch;
      has = true;
    }
  }
  if (has || current) words.push(current);
  return words;
}

function splitUrl(url: string): {scheme?: string; path: string} {
  const m = /^(?:(https?|wss?):\/\/[^/\s]+)?(\/[^\s?#]*)?/.exec(url);
  return {scheme: m?.[1], path: m?.[2] ?? '/'};
}

/** Every curl invocation in a bash block. */
export function curlRequests(block: string): PageRequest[] {
  const joined = block.replace(/\\\r?\n/g, ' ');
  const out: PageRequest[] = [];
  for (const line of joined.split('\n')) {
    const words = shellWords(line.replace(/^\s*\$\s+/, ''));
    const start = words.indexOf('curl');
    if (start < 0) continue;
    let method: string | undefined;
    let body: string | undefined;
    let url: string | undefined;
    for (let i = start + 1; i < words.length; i++) {
      const w = words[i]!;
      if (w === '-X' || w === '--request') method = words[++i];
      else if (['-d', '--data', '--data-raw', '--data-binary', '--json'].includes(w)) body = words[++i];
      else if (['-H', '--header', '--cacert', '--resolve', '--connect-to', '-o', '--output', '-u', '-w', '--max-time', '-m'].includes(w)) i++;
      else if (/^(https?|wss?):\/\//.test(w)) url = w;
      else if (w === '|' || w === '&&' || w === ';') break;
    }
    if (!url) continue;
    const {scheme, path} = splitUrl(url);
    out.push({method: (method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase(), url, path, scheme, body});
  }
  return out;
}

export type HttpMessage =
  | {kind: 'request'; method: string; path: string; headers: Record<string, string>; body: string}
  | {kind: 'response'; status: number; headers: Record<string, string>; body: string};

/** Parses an ```http block holding one request or one response. */
export function parseHttp(block: string): HttpMessage | undefined {
  const lines = block.replace(/\r/g, '').split('\n');
  while (lines.length && !lines[0]!.trim()) lines.shift();
  const first = lines.shift();
  if (!first) return undefined;
  const headers: Record<string, string> = {};
  let i = 0;
  for (; i < lines.length && lines[i]!.trim(); i++) {
    const m = /^([\w-]+):\s*(.*)$/.exec(lines[i]!);
    if (m) headers[m[1]!.toLowerCase()] = m[2]!;
  }
  const body = lines.slice(i + 1).join('\n').trim();
  const response = /^HTTP\/[\d.]+\s+(\d{3})/.exec(first);
  if (response) return {kind: 'response', status: Number(response[1]), headers, body};
  const request = /^([A-Z]+)\s+(\S+)(?:\s+HTTP\/[\d.]+)?\s*$/.exec(first);
  if (!request) return undefined;
  return {kind: 'request', method: request[1]!, path: splitUrl(request[2]!).path, headers, body};
}
