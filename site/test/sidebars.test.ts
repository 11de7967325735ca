import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, statSync} from 'node:fs';
import path from 'node:path';
import sidebars from '../sidebars';

const DOCS = path.join(__dirname, '..', 'docs');

/** Doc ids as Docusaurus derives them from file paths (no doc sets `id:` in its front matter). */
function docIds(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return docIds(full, `${prefix}${name}/`);
    return /\.mdx?$/.test(name) ? [`${prefix}${name.replace(/\.mdx?$/, '')}`] : [];
  });
}

/** Every doc id the sidebar names, in order, duplicates kept. */
function sidebarIds(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    if (typeof item === 'string') return [item];
    const o = item as {items?: unknown; id?: string; link?: {type?: string; id?: string}};
    const link = o.link?.type === 'doc' && o.link.id ? [o.link.id] : [];
    return [...(o.id ? [o.id] : []), ...link, ...sidebarIds(o.items)];
  });
}

// `index` is the docs root page, served at /docs/ by the docs-root plugin, outside the sidebar.
const pages = docIds(DOCS).filter((id) => id !== 'index');
const listed = sidebarIds(sidebars.docs);

test('every page in docs/ is in the sidebar', () => {
  assert.deepEqual(pages.filter((id) => !listed.includes(id)), []);
});

test('no page is in the sidebar twice', () => {
  assert.deepEqual(listed.filter((id, i) => listed.indexOf(id) !== i), []);
});

test('the sidebar names no page that does not exist', () => {
  assert.deepEqual(listed.filter((id) => !pages.includes(id)), []);
});
