/**
 * Pages the extract stage must read whole (issue 17 items 2, 3 and 9): headings that name
 * `<svg>` or `<script>` (minifiers leave the `<` raw in the hash link's attributes), a doc at a
 * path ending in /404, control characters, binary and empty files; and record URLs taken from
 * the canonical link (issue 13).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {extractPageDetailed, recordUrlFor} from '../src/extract/extract.ts';

const URL_ = 'https://example.com/docs/intro';

/** A minified Docusaurus doc page around `body` (the shape of the SWC minifier's output). */
const docPage = (body: string, head = ''): string =>
  `<!doctype html><html lang=en class="plugin-docs plugin-id-default docs-version-current docs-doc-page"><head><title>Intro | Site</title>${head}` +
  `<script>window.x = 1 < 2;</script></head><body><div id=__docusaurus><nav class="navbar"><a class=navbar__brand href=/>Site</a></nav>` +
  `<main><div id=__docusaurus_skipToContent_fallback><article><div class="theme-doc-markdown markdown"><header><h1>Intro</h1></header>${body}` +
  `</div></article></div></main></div></body></html>`;
const heading = (text: string, raw: string, id: string): string =>
  `<h2 class=anchor id=${id}>${text}<a href=#${id} class=hash-link aria-label="Direct link to ${raw}" title="Direct link to ${raw}">\u200b</a></h2>`;
const contents = (html: string, url = URL_): (string | null)[] =>
  extractPageDetailed(html, {url}).records.filter((r) => r.type === 'content').map((r) => r.content);

test('content after a heading naming <svg> or <script> is indexed', () => {
  for (const tag of ['svg', 'script', 'pre', 'tbody']) {
    const html = docPage(
      `${heading(`The &lt;${tag}&gt; element`, `The <${tag}> element`, 'el')}<p>Icons are drawn inline.</p>` +
        `<span><svg viewBox="0 0 1 1"><path d=M0></path></svg></span>${heading('After', 'After', 'after')}<p>Readers search for this.</p>` +
        `<pre><code><span class=token-line>a</span></code></pre>`,
    );
    assert.deepEqual(contents(html), ['Icons are drawn inline.', 'Readers search for this.', 'a'], tag);
    const titles = extractPageDetailed(html, {url: URL_}).records.filter((r) => r.type === 'lvl2').map((r) => r.hierarchy.lvl2);
    assert.deepEqual(titles, [`The &lt;${tag}&gt; element`, 'After'], tag);
  }
});

test('a <title> or a comment naming <svg> does not cut the page either', () => {
  const html = docPage('<p>First.</p><!-- <svg> --><p>Second.</p><svg><g></g></svg><p>Third.</p>').replace('<title>Intro | Site</title>', '<title>The <svg> tag | Site</title>');
  assert.deepEqual(contents(html), ['First.', 'Second.', 'Third.']);
});

test('a doc at a path ending in /404 is indexed; the not-found page is skipped in any language', () => {
  const page = docPage('<p>The device answers 404 when the endpoint is missing.</p>').replace('<h1>Intro</h1>', '<h1>Error 404</h1>');
  assert.deepEqual(contents(page, 'https://example.com/docs/errors/404'), ['The device answers 404 when the endpoint is missing.']);
  const notFound = (title: string): string =>
    `<html lang=fr class="docs-wrapper plugin-docs"><head><title>${title} | Site</title></head><body><main><h1>${title}</h1><p>Nothing here.</p></main></body></html>`;
  assert.equal(extractPageDetailed(notFound('Page Not Found'), {url: 'https://example.com/oops'}).skipped, 'not-found');
  assert.equal(extractPageDetailed(notFound('Page introuvable'), {url: 'https://example.com/fr/oops'}).skipped, 'not-found');
  assert.equal(extractPageDetailed(notFound('Seite nicht gefunden'), {url: 'https://example.com/de/oops'}).skipped, 'not-found');
  // A doc may be titled like that page (an error reference): it is a doc, and indexed.
  const doc = docPage('<p>What the reader sees.</p>').replace('<h1>Intro</h1>', '<h1>Page Not Found</h1>');
  assert.deepEqual(contents(doc), ['What the reader sees.']);
});

test('NUL, ESC and other control characters reach no record', () => {
  const html = docPage('<p>Before&#27;[31m red &#0; after\u0007 bell\u009b.</p>', '<meta name="docsearch:version" content="1.0&#27;">');
  const records = extractPageDetailed(html, {url: URL_}).records;
  const json = JSON.stringify(records);
  assert.doesNotMatch(json, /\\u00(0|1)[0-9a-f]|\\u007f|[\u0080-\u009f]/i);
  // Dropped as a browser drops them, not turned into spaces.
  assert.deepEqual(contents(html), ['Before[31m red \ufffd after bell.']);
  assert.equal(records[0]?.version, '1.0');
});

test('a control character inside a word leaves the word whole, as a browser shows it', () => {
  // NUL bytes inside Ukrainian words, as a real site's build holds them.
  // (After the first kilobyte: a NUL before it marks a binary file.)
  const html = docPage(`${'<p>Вступ.</p>'.repeat(60)}<h2 id=s>Нала\u0000штування</h2><p>Увімк\u0000нення лічи\u0000льника та\u0007 API\u001f.</p>`);
  assert.equal(contents(html).at(-1), 'Увімкнення лічильника та API.');
  assert.equal(extractPageDetailed(html, {url: URL_}).records.find((r) => r.type === 'lvl2')?.hierarchy.lvl2, 'Налаштування');
  // Whitespace controls still separate words.
  assert.deepEqual(contents(docPage('<p>one\ttwo\fthree\r\nfour</p>')), ['one two three four']);
});

test('a tag count or a badge is a word of its own, not glued to its label', () => {
  const html = docPage(
    '<ul><li><a rel=tag class="tag_zVej tagWithCount_h2kH" href=/blog/tags/zig>Zig 0.15.x<span>3</span></a></li></ul>' +
      '<p>Endpoint<span class="badge badge--secondary">v2</span> only.</p>',
  );
  assert.deepEqual(contents(html), ['Zig 0.15.x 3', 'Endpoint v2 only.']);
});

test('binary and empty .html files are skipped, not turned into records', () => {
  assert.equal(extractPageDetailed('', {url: URL_}).skipped, 'empty');
  assert.equal(extractPageDetailed('  \n ', {url: URL_}).skipped, 'empty');
  assert.equal(extractPageDetailed('\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR', {url: URL_}).skipped, 'not-html');
});

test('admonition default titles are dropped in every locale Docusaurus ships; custom titles stay', () => {
  const admonition = (type: string, title: string, text: string): string =>
    `<div class="theme-admonition theme-admonition-${type} admonition_x alert"><div class=admonitionHeading_y><span class=admonitionIcon_z><svg><path d=M0></path></svg></span>${title}</div><div class=admonitionContent_w><p>${text}</p></div></div>`;
  const html = docPage(
    admonition('note', 'remarque', 'Un.') + admonition('warning', 'Warnung', 'Zwei.') + admonition('tip', 'Astuce de pairage', 'Trois.') + admonition('note', 'Attention', 'Quatre.'),
  );
  // "Attention" is French for caution, not a default title of a note: it stays.
  assert.deepEqual(contents(html), ['Un.', 'Zwei.', 'Astuce de pairage', 'Trois.', 'Attention', 'Quatre.']);
});

test('lvl0 outside the docs: the active navbar item, else Home for the brand link target, else Pages', () => {
  const page = (navbar: string, url: string): string | undefined =>
    extractPageDetailed(
      `<html class="blog-wrapper plugin-blog"><head><title>T</title></head><body><nav class=navbar>${navbar}</nav><main><h1>T</h1><p>Text.</p></main></body></html>`,
      {url},
    ).records[0]?.hierarchy.lvl0;
  const brand = '<a class=navbar__brand href=/docs-site/><b>Site</b></a>';
  assert.equal(page(`${brand}<a class="navbar__item navbar__link navbar__link--active" href=/docs-site/blog>Journal</a>`, 'https://e.org/docs-site/blog/post'), 'Journal');
  assert.equal(page(brand, 'https://e.org/docs-site'), 'Home');
  assert.equal(page(brand, 'https://e.org/docs-site/'), 'Home');
  assert.equal(page(brand, 'https://e.org/docs-site/about/'), 'Pages');
});

test('the record URL is the canonical link below the site root, moved onto the record base', () => {
  const site = {root: 'https://example.com/docs-site/', base: 'https://preview.example.net/'};
  assert.equal(recordUrlFor('https://example.com/docs-site/docs/a', 'https://x/fallback/', site), 'https://preview.example.net/docs/a');
  assert.equal(recordUrlFor('https://example.com/docs-site', 'https://x/fallback/', site), 'https://preview.example.net/');
  assert.equal(recordUrlFor('https://example.com/docs-site', 'https://x/fallback/', {...site, base: 'https://preview.example.net/sub/'}), 'https://preview.example.net/sub');
  assert.equal(recordUrlFor('https://u:p@example.com/docs-site/b/#x', 'https://x/fallback/', site), 'https://preview.example.net/b/');
  // A canonical elsewhere (another site, or outside the base path) is not trusted.
  assert.equal(recordUrlFor('https://other.example.org/docs/a', 'https://x/fallback/', site), 'https://x/fallback/');
  assert.equal(recordUrlFor('https://example.com/other/a', 'https://x/fallback/', site), 'https://x/fallback/');
  const html = docPage('<p>Text.</p>', '<link rel=canonical href=https://example.com/docs-site/docs/intro>');
  assert.equal(extractPageDetailed(html, {url: 'https://x/docs/intro/', site}).records[0]?.url, 'https://preview.example.net/docs/intro');
});

test("listing pages are told by Docusaurus's search tag or by their page class, each alone; posts, docs and the archive are pages", () => {
  const page = (htmlClass: string, tag?: string): ReturnType<typeof extractPageDetailed> =>
    extractPageDetailed(
      `<html class="${htmlClass}"><head><title>T</title>${tag ? `<meta name=docsearch:docusaurus_tag content=${tag}>` : ''}</head>` +
        '<body><main><article><h1>T</h1><p>An excerpt of a post.</p></article></main></body></html>',
      {url: 'https://example.com/blog/page/2'},
    );
  const lists: [string, string, string][] = [
    ['blog_posts_list', 'blog-list-page', 'blog post list'],
    ['blog_tags_list', 'blog-tags-list-page', 'blog tags'],
    ['blog_tags_posts', 'blog-tags-post-list-page', "a blog tag's posts"],
    ['blog_authors_list', 'blog-authors-list-page', 'blog authors'],
    ['blog_authors_posts', 'blog-authors-posts-page', "a blog author's posts"],
    ['doc_tags_list', 'docs-tags-list-page', 'doc tags'],
    ['doc_tag_doc_list', 'docs-tags-doc-list-page', "a doc tag's docs"],
  ];
  for (const [tag, pageClass, kind] of lists) {
    for (const result of [page('plugin-blog plugin-id-default', tag), page(`blog-wrapper ${pageClass} plugin-id-default`)]) {
      assert.deepEqual([result.skipped, result.detail, result.records.length], ['list-page', kind, 0], `${tag} / ${pageClass}`);
    }
  }
  // A post, a doc, the blog's archive (no class of its own, tag default) and a custom page give records.
  for (const [htmlClass, tag] of [['blog-wrapper blog-post-page plugin-blog', 'default'], ['docs-wrapper docs-doc-page', 'docs-default-current'], ['plugin-blog plugin-id-default', 'default'], ['mdx-wrapper mdx-page', undefined]] as const) {
    const result = page(htmlClass, tag);
    assert.equal(result.skipped, undefined, htmlClass);
    assert.ok(result.records.some((r) => r.content === 'An excerpt of a post.'), htmlClass);
  }
});
