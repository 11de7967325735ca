/**
 * The theme's build-side rules without Docusaurus: options and their defaults, the search mode,
 * which crawled pages go into a build's index, and the inlined early search box.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {githubIssueTemplate, normalizeOptions, recordFilter, searchModeOf} from '../src/options.ts';
import {inlineShellScript} from '../src/shell-script.ts';
import {shellDefaultTexts} from '../src/early-config.ts';
import {validateThemeConfig} from '../src/index.ts';

test('defaults: every route group indexed, split above 50 pages, early search box on', () => {
  const options = normalizeOptions(undefined);
  assert.deepEqual(
    {...options, localIndex: undefined},
    {id: 'default', indexDocs: true, indexBlog: true, indexPages: true, ignore: [], splitAbovePages: 50, searchPagePath: undefined, indexName: undefined, reportMissingResults: undefined, earlySearchBox: true, earlyAnswers: true, synonyms: undefined, localIndex: undefined},
  );
  assert.equal(normalizeOptions({searchPagePath: '/find/'}).searchPagePath, 'find');
});

test('a wrong option is a one-line error naming it', () => {
  assert.throws(() => normalizeOptions({indexBlogs: false} as never), /^OptionError: \[docusaurus-theme-docs-search\] unknown option "indexBlogs"/);
  assert.throws(() => normalizeOptions({splitAbovePages: -1}), /splitAbovePages/);
  assert.throws(() => normalizeOptions({ignore: [1]} as never), /"ignore"/);
  assert.throws(() => normalizeOptions({indexDocs: 'no'} as never), /"indexDocs" must be true or false/);
  assert.throws(() => normalizeOptions({synonyms: ['socket', 'plug']} as never), /"synonyms" must be a non-empty string/);
  assert.equal(normalizeOptions({synonyms: 'search-synonyms.json'}).synonyms, 'search-synonyms.json');
});

test('Algolia mode needs appId, apiKey and indexName; anything less is local mode', () => {
  assert.equal(searchModeOf(undefined), 'local');
  assert.equal(searchModeOf({appId: 'A', apiKey: '', indexName: 'i'}), 'local');
  assert.equal(searchModeOf({appId: 'A', apiKey: 'k'}), 'local');
  assert.equal(searchModeOf({appId: 'A', apiKey: 'k', indexName: 'i'}), 'algolia');
});

test('local mode fills themeConfig.algolia for the stock hooks; Algolia mode keeps it as it is', () => {
  const local = validateThemeConfig({themeConfig: {navbar: {}}, validate: null});
  assert.deepEqual(local.docsSearch, {mode: 'local'});
  assert.deepEqual(local.algolia, {contextualSearch: true, searchParameters: {}, searchPagePath: 'search', appId: 'local', apiKey: 'local', indexName: 'local', insights: false});
  const algolia = {appId: 'A', apiKey: 'k', indexName: 'docs', contextualSearch: false};
  const kept = validateThemeConfig({themeConfig: {algolia}, validate: null});
  assert.equal(kept.algolia, algolia);
  assert.deepEqual(kept.docsSearch, {mode: 'algolia'});
});

test("a build's index keeps its own routed pages of the enabled plugins, minus ignored ones", () => {
  const routes = new Map([
    ['/site/', 'docusaurus-plugin-content-pages'],
    ['/site/docs/intro', 'docusaurus-plugin-content-docs'],
    ['/site/docs/changelog', 'docusaurus-plugin-content-docs'],
    ['/site/docs/changelog/2024', 'docusaurus-plugin-content-docs'],
    ['/site/docs/changelogs', 'docusaurus-plugin-content-docs'],
    ['/site/blog/hello', 'docusaurus-plugin-content-blog'],
    ['/site/docs/héllo', 'docusaurus-plugin-content-docs'],
  ]);
  const keep = recordFilter({options: normalizeOptions({indexBlog: false, ignore: ['docs/changelog', /\/intro$/]}), baseUrl: '/site/', routes});
  const url = (p: string) => `https://example.com${p}`;
  assert.equal(keep(url('/site/')), true);
  assert.equal(keep(url('/site/docs/intro')), false, 'RegExp');
  assert.equal(keep(url('/site/docs/changelog')), false, 'the ignored path');
  assert.equal(keep(url('/site/docs/changelog/2024/')), false, 'a page under it (trailing slash)');
  assert.equal(keep(url('/site/docs/changelogs')), true, 'a sibling whose name starts the same');
  assert.equal(keep(url('/site/blog/hello')), false, 'blog off');
  assert.equal(keep(url('/site/docs/h%C3%A9llo')), true, 'an encoded path');
  assert.equal(keep(url('/site/fr/docs/intro')), false, "another locale's page is not routed by this build");
});

test('"Let us know" goes to a new GitHub issue when organizationName and projectName are set', () => {
  assert.equal(githubIssueTemplate(undefined, 'p'), undefined);
  const template = githubIssueTemplate('o', 'p');
  assert.ok(template?.startsWith('https://github.com/o/p/issues/new?title=Search%3A%20no%20results%20for%20%22{query}%22&body='));
});

test('the early search box carries the search page and texts as data, escaped for an inline script', () => {
  const script = inlineShellScript({searchPage: '/fr/search', placeholder: 'Rechercher </script>', cancel: 'Annuler'});
  assert.ok(!script.includes('</script>'));
  assert.ok(script.includes('{page:"/fr/search",placeholder:"Rechercher \\u003c/script>",cancel:"Annuler",loading:"Loading search…",'));
  assert.ok(script.includes(',early:null}'));
  assert.ok(!script.includes('__SEARCH_TEXTS__'));
  assert.ok(!/^\s*\/\//m.test(script), 'no comment lines');
});

test("the early box's own texts follow the locale; its answering module's configuration is inlined safely", () => {
  const fr = shellDefaultTexts('fr-CA');
  assert.equal(fr['theme.SearchShell.loading'], 'Chargement de la recherche…');
  assert.equal(shellDefaultTexts('ja')['theme.SearchShell.loading'], 'Loading search…');
  const script = inlineShellScript({
    searchPage: '/fr/search',
    placeholder: 'Rechercher',
    cancel: 'Annuler',
    loading: fr['theme.SearchShell.loading'],
    failed: fr['theme.SearchShell.failed'],
    early: {url: '/fr/search/early-search.abc.js', config: {texts: {errorTitle: '</script><script>alert(1)'}} as never},
  });
  assert.ok(script.includes('loading:"Chargement de la recherche…",failed:"La recherche n’a pas pu être chargée.'));
  assert.ok(script.includes('early:{"url":"/fr/search/early-search.abc.js","config":{"texts":{"errorTitle":"\\u003c/script>\\u003cscript>alert(1)"}}}}'));
  assert.ok(!script.includes('</script>'));
});
