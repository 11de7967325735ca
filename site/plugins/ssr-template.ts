/**
 * Docusaurus's page template (@docusaurus/core lib/ssg/ssgTemplate.html.js) with one change: the
 * app's scripts start after the page's first paint, not as soon as the HTML is parsed.
 *
 * With `<script defer>` in the head, a fast connection delivers main.js before the browser's first
 * frame, so a phone runs and hydrates the whole app (hundreds of milliseconds on a long API page)
 * before it shows anything. Integrators read these pages on their home network, where exactly that
 * happens. Here an inline script at the end of the body adds the scripts, in order, once a frame
 * has been shown (at once in a hidden tab, which paints nothing); the page is fully parsed by
 * then, as with `defer`.
 *
 * The cost: the scripts' download starts after that first frame instead of during parsing, so on
 * a slow network the page becomes interactive a little later; it is readable (and its links work
 * as plain links) all the while. Preloading them from the head was measured too (bench/lighthouse.ts,
 * mobile, /docs/introduction and /docs/v2/measurement, three runs each): the downloads start early
 * but compete with what the first paint needs on a slow network, and the median performance score
 * was 96 with a normal-priority preload, 92 with a low-priority one and 99 without.
 *
 * The head also carries the search shell (src/search/shell.inline.js): from the first paint, a
 * click on the search button or a search shortcut shows a search box at once and keeps what the
 * reader types until the app and the DocSearch modal take over.
 */
import {readFileSync} from 'node:fs';

/**
 * The shell's source as inlined: block comments, comment lines and indentation stripped (the
 * source is written for that: no trailing comments, no code that needs its line breaks).
 */
export function inlineShellScript(searchPagePath: string): string {
  const source = readFileSync(new URL('../src/search/shell.inline.js', import.meta.url), 'utf8');
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n')
    .replace('__SEARCH_PAGE__', searchPagePath);
}

/** The page template, with the search shell for a search page at `searchPagePath`. */
export function ssrTemplate(searchPagePath: string): string {
  return SSR_TEMPLATE.replace('<%~ it.searchShellScript %>', () => inlineShellScript(searchPagePath));
}

const SSR_TEMPLATE = `<!DOCTYPE html>
<html <%~ it.htmlAttributes %>>
  <head>
    <meta charset="UTF-8">
    <meta name="generator" content="Docusaurus v<%= it.version %>">
    <% it.metaAttributes.forEach((metaAttribute) => { %>
      <%~ metaAttribute %>
    <% }); %>
    <%~ it.headTags %>
    <script><%~ it.searchShellScript %></script>
    <% it.stylesheets.forEach((stylesheet) => { %>
      <link rel="stylesheet" href="<%= it.baseUrl %><%= stylesheet %>" />
    <% }); %>
  </head>
  <body <%~ it.bodyAttributes %>>
    <%~ it.preBodyTags %>
    <div id="__docusaurus"><%~ it.appHtml %></div>
    <%~ it.postBodyTags %>
    <script>
      (function (scripts) {
        function run() {
          scripts.forEach(function (src) {
            var script = document.createElement('script');
            script.src = src;
            script.async = false;
            document.body.appendChild(script);
          });
        }
        if (document.visibilityState === 'hidden') run();
        // The frame after the first one: by then the first has been shown on screen.
        else requestAnimationFrame(function () { requestAnimationFrame(run); });
      })(<%~ JSON.stringify(it.scripts.map((script) => it.baseUrl + script)) %>);
    </script>
  </body>
</html>
`;
