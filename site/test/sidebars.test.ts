import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, statSync} from 'node:fs';
import path from 'node:path';
import sidebars from '../sidebars';

const DOCS = path.join(__dirname, '..', 'docs');

function docIds(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return docIds(full, `${prefix}${name}/`);
    return /\.mdx?$/.test(name) ? [`${prefix}${name.replace(/\.mdx?$/, '')}`] : [];
  });
}

function sidebarIds(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    if (typeof item === 'string') return [item];
    const o = item as {items?: unknown; id?: string};
    return [...(o.id ? [o.id] : []), ...sidebarIds(o.items)];
  });
}

test('every page in docs/ is in the sidebar, and the sidebar names no missing page', () => {
  const files = docIds(DOCS).filter((id) => id !== 'index').sort();
  const listed = sidebarIds(sidebars.docs).sort();
  assert.deepEqual(listed, files);
  assert.equal(files.length, 20);
});
