/**
 * The ranking table and the README cannot disagree: the README's table is the one rendered from
 * src/engine/ranking.ts, and every number the README's "How a query is answered" gives is a
 * table entry's, written `name` (value).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {RANKING} from '../src/engine/ranking.ts';
import {descriptions, formatValue, README, withTable} from './ranking-table.ts';

const readme = readFileSync(README, 'utf8');
const section = (() => {
  const start = readme.indexOf('## How a query is answered');
  assert.ok(start >= 0, 'README.md has a "How a query is answered" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
})();

test('every entry of the ranking table says what it does', () => {
  const what = descriptions();
  for (const name of Object.keys(RANKING)) assert.ok(what.get(name), `ranking.ts: ${name} has no doc comment`);
});

test("the README's ranking table is the one ranking.ts renders (node --import tsx indexer/search/test/ranking-table.ts --write)", () => {
  assert.equal(readme, withTable(readme));
});

test('every `name` (value) the README states is the table\'s value', () => {
  const cited = Array.from(section.matchAll(/`(\w+)`\s+\(([^()]*)\)/g)).filter(([, name]) => /^[a-z]+[A-Z0-9]\w*$|^bm25$/.test(name!));
  assert.ok(cited.length >= 10, `the section cites the table (${cited.length} names)`);
  for (const [, name, value] of cited) {
    assert.ok(name! in RANKING, `README cites \`${name}\`, which the table does not hold`);
    assert.equal(value, formatValue(RANKING[name as keyof typeof RANKING]), `README gives \`${name}\` as ${value}`);
  }
});

test('the README states no weight outside the table: every decimal number of the section is a cited value', () => {
  const prose = section
    .replace(/<!-- ranking-table[\s\S]*?<!-- \/ranking-table -->/, '')
    .replace(/`\w+`\s+\([^()]*\)/g, '')
    .replace(/`[^`]*`/g, '');
  const stray = prose.match(/(?<![\w.])\d+\.\d+(?![\w.])/g) ?? [];
  assert.deepEqual(stray, [], 'numbers given without the name of their table entry');
});

test('every rule can be switched off: each name is read by the engine, and the README measures each', async () => {
  const {readdirSync} = await import('node:fs');
  const {RULE_NAMES, switchOff} = await import('../src/engine/ranking.ts');
  const dir = new URL('../src/engine/', import.meta.url);
  const source = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(new URL(f, dir), 'utf8'))
    .join('\n');
  const ablation = readme.slice(readme.indexOf('## Rules and what each buys'));
  for (const name of RULE_NAMES) {
    assert.ok(source.includes(`'${name}'`) && new RegExp(`ruleOn\\('${name}'\\)|'${name}'[^\\n]*\\]\\s*as const\\)\\.map\\(ruleOn\\)`).test(source), `the engine reads rule ${name}`);
    assert.ok(ablation.includes(`| \`${name}\` |`), `the README's ablation table has a row for ${name}`);
  }
  assert.throws(() => switchOff(['no-such-rule']), /unknown ranking rule no-such-rule/);
});
