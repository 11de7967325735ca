/**
 * Docusaurus's page template (@docusaurus/core lib/ssg/ssgTemplate.html.js) with one change: the
 * app's scripts run after the page's first paint, not as soon as the HTML is parsed.
 *
 * With `<script defer>` in the head, a fast connection delivers main.js before the browser's first
 * frame, so a phone runs and hydrates the whole app before it shows anything. Here an inline
 * script at the end of the body adds the scripts, in order, once a frame has been shown (at once
 * in a hidden tab, which paints nothing); the page is fully parsed by then, as with `defer`.
 *
 * Their download starts earlier, as preloads, once the stylesheets have arrived: by then nothing
 * the first paint needs is still on the wire, and the scripts download while the browser parses
 * and lays out the rest of a long page. The preloads ask for a low fetch priority: a script
 * preload is otherwise High, which Lighthouse's simulated throttling takes for a render-blocking
 * script. site/OVERRIDES.md ("ssr-template: decisions") gives the figures behind this order.
 *
 * The head also carries the search shell of docusaurus-theme-docs-search (inlined with the site's
 * head tags): from the first paint, a click on the search button or a search shortcut shows a
 * search box at once and keeps what the reader types until the app and the modal take over.
 */
import {readFile, readdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export const ssrTemplate = `<!DOCTYPE html>
<html <%~ it.htmlAttributes %>>
  <head>
    <meta charset="UTF-8">
    <meta name="generator" content="Docusaurus v<%= it.version %>">
    <% it.metaAttributes.forEach((metaAttribute) => { %>
      <%~ metaAttribute %>
    <% }); %>
    <%~ it.headTags %>
    <script>
      (function (scripts) {
        window.__appScripts = {run: run, preload: preload};
        // Downloads start once the stylesheets are in (see the body's first script): they never
        // compete with what the first paint needs, and they download while the rest of the page
        // is parsed and laid out (hundreds of milliseconds on a long page on a phone), not after.
        // Only the app's own scripts (runtime and main, listed first): each preload element costs
        // the main thread a few milliseconds before the first paint, and the small route chunks
        // download while main.js is evaluated.
        var appScripts = scripts.slice(0, <%~ it.scripts.length %>);
        function preload() {
          appScripts.forEach(function (src) {
            var link = document.createElement('link');
            link.rel = 'preload';
            link.as = 'script';
            link.fetchPriority = 'low';
            link.href = src;
            document.head.appendChild(link);
          });
        }
        // The body's first script has preloaded: the parser ran it before the one that calls this.
        function run() {
          scripts.forEach(function (src) {
            var script = document.createElement('script');
            script.src = src;
            script.async = false;
            document.body.appendChild(script);
          });
        }
      })(<%~ JSON.stringify(it.scripts.map((script) => it.baseUrl + script)) %>);
    </script>
    <% it.stylesheets.forEach((stylesheet) => { %>
      <link rel="stylesheet" href="<%= it.baseUrl %><%= stylesheet %>" />
    <% }); %>
  </head>
  <body <%~ it.bodyAttributes %>>
    <%~ it.preBodyTags %>
    <% /* An inline script runs only once the stylesheets before it have loaded (they block
          scripts), and the parser runs it as it gets here: at once, unlike a stylesheet's load
          event, which a phone busy parsing a long page may not dispatch before parsing ends. */ %>
    <script>__appScripts.preload()</script>
    <div id="__docusaurus"><%~ it.appHtml %></div>
    <%~ it.postBodyTags %>
    <script>
      (function (app) {
        // Run once the page is parsed (here) and has been shown: at once in a hidden tab (it
        // paints nothing), else the frame after the next one.
        if (document.visibilityState === 'hidden') app.run();
        else requestAnimationFrame(function () { requestAnimationFrame(app.run); });
      })(window.__appScripts);
    </script>
  </body>
</html>
`;

/**
 * Route chunks start downloading with main.js instead of after it.
 *
 * The template's script list holds only runtime~main.js and main.js: Docusaurus finds a page's
 * route chunks through react-loadable's manifest, which Rspack's module ids do not match, so
 * each page would fetch its chunks only once main.js had run. After the build this plugin adds to
 * every page's list the chunks of its routes: the route tree (.docusaurus/routes.js), each
 * route's chunk names (routesChunkNames.json) and, from the bundler's own stats of the browser
 * build, the files of the chunk group each name makes (Docusaurus's registry imports every
 * route module with that name as `webpackChunkName`). A chunk that arrives first waits in
 * `webpackChunk…` for the runtime; webpack reuses a script tag it finds for a chunk it needs, so
 * nothing downloads twice. Anything missing (a route without its chunk names, a name without a
 * chunk group, a page without the loader) fails the build: a page never silently loses its chunks.
 */
export function routeScriptsPlugin(context: LoadContext): Plugin {
  /** Chunk group name → its JavaScript files, from the browser build's stats. */
  let chunkGroups: Map<string, string[]> | undefined;
  return {
    name: 'route-scripts',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {
        plugins: [
          {
            apply(compiler: {hooks: {done: {tap(name: string, callback: (stats: BundlerStats) => void): void}}}) {
              compiler.hooks.done.tap('route-scripts', (stats) => {
                chunkGroups = namedChunkGroups(stats);
              });
            },
          },
        ],
      };
    },
    async postBuild({outDir}) {
      if (!chunkGroups) throw new Error('route-scripts: the browser build reported no stats');
      const groups = chunkGroups;
      const source = await readFile(path.join(context.generatedFilesDir, 'routes.js'), 'utf8');
      const routes = routeTree(source);
      const chunkNames = JSON.parse(await readFile(path.join(context.generatedFilesDir, 'routesChunkNames.json'), 'utf8')) as Record<string, unknown>;

      const scriptsFor = (pagePath: string): string[] => {
        const urls = new Set<string>();
        for (const route of routes) {
          const matches = route.exact
            ? route.path === pagePath
            : pagePath === route.path || pagePath.startsWith(route.path.endsWith('/') ? route.path : `${route.path}/`);
          if (!matches) continue;
          const key = `${route.path}-${route.hash}`;
          if (!(key in chunkNames)) throw new Error(`route-scripts: routesChunkNames.json has no entry ${key}`);
          for (const name of stringsIn(chunkNames[key])) {
            const files = groups.get(name);
            if (!files) throw new Error(`route-scripts: the bundler made no chunk group named "${name}" (route ${route.path})`);
            for (const file of files) urls.add(`${context.baseUrl}${file}`);
          }
        }
        return [...urls];
      };

      for (const html of await htmlFiles(outDir)) {
        const rel = path.relative(outDir, html).replace(/\\/g, '/').replace(/(\/?index)?\.html$/, '');
        const pagePath = `${context.baseUrl}${rel}`;
        const extra = scriptsFor(pagePath);
        if (extra.length === 0) continue;
        const page = await readFile(html, 'utf8');
        // The loader's argument (minified HTML): (["/assets/js/runtime~main.….js","/assets/js/main.….js"])
        let found = false;
        const updated = page.replace(/\((\["[^"\]]*runtime~main\.[^"\]]*"(?:,"[^"\]]*")*\])\)/, (_whole, list: string) => {
          found = true;
          const scripts = JSON.parse(list) as string[];
          return `(${JSON.stringify([...scripts, ...extra.filter((u) => !scripts.includes(u))])})`;
        });
        if (!found) throw new Error(`route-scripts: no script loader in ${path.relative(outDir, html)} (is ssr-template off?)`);
        await writeFile(html, updated);
      }
    },
  };
}

/** What the plugin reads of the bundler's stats (webpack's and Rspack's `Stats`). */
interface BundlerStats {
  toJson(options: object): {namedChunkGroups?: Record<string, {assets?: {name: string}[]}>};
}

/** Chunk group name → the JavaScript files of its chunks, as the bundler reports them. */
function namedChunkGroups(stats: BundlerStats): Map<string, string[]> {
  const {namedChunkGroups: groups} = stats.toJson({all: false, chunkGroups: true});
  if (!groups || Object.keys(groups).length === 0) throw new Error('route-scripts: the bundler reported no named chunk groups');
  return new Map(Object.entries(groups).map(([name, group]) => [name, (group.assets ?? []).map((a) => a.name).filter((f) => f.endsWith('.js'))]));
}

export interface RouteEntry {
  path: string;
  hash: string;
  exact: boolean;
}

/**
 * Every route of the generated route tree, parents included: `{path, component:
 * ComponentCreator(path, hash), exact | routes}`. Each ComponentCreator call must be read, or the
 * build fails.
 */
export function routeTree(source: string): RouteEntry[] {
  const routes = [...source.matchAll(/ComponentCreator\('([^']+)', '([0-9a-f]+)'\),\s*(exact: true|routes)/g)].map((m) => ({
    path: m[1]!,
    hash: m[2]!,
    exact: m[3] === 'exact: true',
  }));
  // The not-found route (`ComponentCreator('*')`) has no chunk names of its own.
  const calls = (source.match(/ComponentCreator\(/g)?.length ?? 0) - (source.match(/ComponentCreator\('\*'\)/g)?.length ?? 0);
  if (routes.length === 0 || routes.length !== calls) {
    throw new Error(`route-scripts: read ${routes.length} of the ${calls} routes of .docusaurus/routes.js (has its format changed?)`);
  }
  return routes;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'assets') out.push(...(await htmlFiles(full)));
    } else if (entry.name.endsWith('.html')) out.push(full);
  }
  return out;
}
