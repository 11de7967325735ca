/**
 * The ranking table as the README shows it, rendered from src/engine/ranking.ts: each name, its
 * value and its doc comment (what it does). test/ranking.test.ts checks that the README holds
 * this table; after changing the table, write it into the README with
 *
 *   node --import tsx indexer/search/test/ranking-table.ts --write
 */
import {readFileSync, writeFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {RANKING} from '../src/engine/ranking.ts';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));
const SOURCE = fileURLToPath(new URL('../src/engine/ranking.ts', import.meta.url));
export const START = '<!-- ranking-table: generated from src/engine/ranking.ts by test/ranking-table.ts -->';
export const END = '<!-- /ranking-table -->';

/** A value as the README writes it: `0.6`, `[4, 8]`, `{k: 1.2, b: 0.5, d: 0.5}`. */
export function formatValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${k}: ${formatValue(v)}`).join(', ')}}`;
  return String(value);
}

/** Each entry's doc comment in ranking.ts, by name. */
export function descriptions(): Map<string, string> {
  const source = readFileSync(SOURCE, 'utf8');
  return new Map(Array.from(source.matchAll(/\/\*\* (.+?) \*\/\n\s+(\w+):/g), (m) => [m[2]!, m[1]!]));
}

/** The Markdown table, one row per entry of RANKING, in its order. */
export function rankingTable(): string {
  const what = descriptions();
  const lines = ['| name | value | what it does |', '|---|---|---|'];
  for (const [name, value] of Object.entries(RANKING)) lines.push(`| \`${name}\` | ${formatValue(value)} | ${(what.get(name) ?? '').replace(/\|/g, '\\|')} |`);
  return lines.join('\n');
}

/** The README with its table replaced by the rendered one. */
export function withTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md: no ${START} … ${END} block`);
  return `${readme.slice(0, start + START.length)}\n${rankingTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--write')) {
  writeFileSync(README, withTable(readFileSync(README, 'utf8')));
}
