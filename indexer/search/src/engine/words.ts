/**
 * Small word tests over plain text, shared by the engine's parts: whether a word stands alone
 * (no letter or digit on either side), a letter-or-digit test, and a bit count of matched words.
 */

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

const LETTER_OR_DIGIT_BEFORE = /[\p{L}\p{N}]$/u;

const LETTER_OR_DIGIT_AT = /^[\p{L}\p{N}]/u;

/**
 * Whether `word` occurs in `text` with no letter or digit (a Unicode code point) right before or
 * after it: what `(?<![\p{L}\p{N}])word(?![\p{L}\p{N}])` finds.
 */
export function standsAlone(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = i < text.length ? text.indexOf(word, i + 1) : -1) {
    if (wordAt(text, word, i)) return true;
  }
  return false;
}

function wordAt(text: string, word: string, i: number): boolean {
  const end = i + word.length;
  if (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c < 128 ? isWordChar(c) : LETTER_OR_DIGIT_BEFORE.test(text.slice(Math.max(0, i - 2), i))) return false;
  }
  if (end < text.length) {
    const c = text.charCodeAt(end);
    if (c < 128 ? isWordChar(c) : LETTER_OR_DIGIT_AT.test(text.slice(end, end + 2))) return false;
  }
  return true;
}

/** A letter or digit (of lowercased text: ASCII tested without a regex). */
export function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  return LETTER_OR_DIGIT.test(String.fromCharCode(c));
}

export function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}
