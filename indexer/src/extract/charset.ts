/**
 * A page's bytes → its text, in the encoding a browser would read it with: a byte order mark,
 * else the charset of the HTTP `Content-Type` header, else the page's `<meta charset>` (or its
 * `http-equiv` content type) within its first 1,024 bytes, else UTF-8 (what Docusaurus writes).
 * The choice is the HTML standard's sniffing algorithm as encoding-sniffer implements it (by
 * htmlparser2's author, used by cheerio), labels mapped as the Encoding standard says
 * (`iso-8859-1` is read as windows-1252, as browsers do). UTF-8 pages, nearly all of them, are
 * decoded by Node's TextDecoder (as fast as `buffer.toString()`); any other encoding by
 * encoding-sniffer's decoder.
 */
import {decodeBuffer, getEncoding, type SnifferOptions} from 'encoding-sniffer';

const utf8 = new TextDecoder('utf-8');

/** The `charset` parameter of a Content-Type header value, if any. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1];
}

/** The text of a page's bytes; `contentType` is the HTTP header of a fetched page. */
export function decodePage(bytes: Uint8Array, contentType?: string): string {
  const label = charsetOf(contentType);
  const options: SnifferOptions = {defaultEncoding: 'utf-8', ...(label ? {transportLayerEncodingLabel: label} : {})};
  const encoding = getEncoding(bytes, options);
  if (encoding === 'UTF-8') return utf8.decode(bytes);
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return decodeBuffer(buffer, {...options, userEncoding: encoding});
}
