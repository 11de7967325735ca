/** A meta refresh (`<meta http-equiv="refresh" content="0; url=/docs/x">`): where it sends the reader. */

/** The URL in a meta refresh's content (`0; url=/docs/x`, `0;URL='/docs/x'`, `5, /docs/x`), as the HTML standard parses it. */
export function refreshUrl(content: string): string | undefined {
  const match = /^\s*[\d.]+\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  let url = match?.[1]?.trim() ?? '';
  const quote = url[0];
  if (quote === '"' || quote === "'") {
    const end = url.indexOf(quote, 1);
    url = end < 0 ? url.slice(1) : url.slice(1, end);
  }
  return url === '' ? undefined : url;
}
