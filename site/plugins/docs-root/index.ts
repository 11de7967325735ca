import {copyFile, mkdir} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin, RouteConfig} from '@docusaurus/types';
import docsPlugin, {type PluginOptions, type LoadedContent} from '@docusaurus/plugin-content-docs';

/**
 * The stock docs plugin, plus one page at the docs root (`/docs`).
 *
 * Why not a doc with `slug: /`? The docs plugin picks a version's main document as the doc whose
 * slug is `/` before the first doc of the first sidebar (`getMainDocId` in
 * plugin-content-docs/lib/docs.js), and the spec fixes the main document as /docs/introduction.
 * So the root page is added as one more child of the plugin's sidebar route (next to the doc and
 * generated-index routes): the theme's DocRoot then renders it inside the docs layout with the
 * `docs` sidebar, server-side, so it works without JavaScript. The page itself sends the reader
 * on to the introduction and is marked noindex (the sitemap and the indexer skip it).
 */
export const DOCS_ROOT_COMPONENT = '@site/plugins/docs-root/DocsRootPage';
export const DOCS_ROOT_SIDEBAR = 'docs';

type AddRoute = (route: RouteConfig) => void;

/** Inserts the root page into the sidebar route (the child route whose path is the docs base path). */
export function withDocsRootRoute(route: RouteConfig, basePath: string): RouteConfig {
  const rootPage: RouteConfig = {
    path: basePath,
    exact: true,
    component: DOCS_ROOT_COMPONENT,
    sidebar: DOCS_ROOT_SIDEBAR,
  };
  const visit = (r: RouteConfig): RouteConfig => {
    if (!r.routes) return r;
    const children = r.routes.map(visit);
    // The sidebar route (DocRoot) is the innermost parent whose children are all leaves.
    const isSidebarRoute = r.path === basePath && children.length > 0 && children.every((c) => !c.routes);
    return {...r, routes: isSidebarRoute ? [rootPage, ...children] : children};
  };
  return visit(route);
}

export default async function docsWithRootPlugin(
  context: LoadContext,
  options: PluginOptions,
): Promise<Plugin<LoadedContent>> {
  const plugin = await docsPlugin(context, options);
  const basePath = `${context.baseUrl}${options.routeBasePath}`.replace(/\/+/g, '/').replace(/\/$/, '');
  return {
    ...plugin,
    async contentLoaded(args) {
      const addRoute: AddRoute = (route) => args.actions.addRoute(withDocsRootRoute(route, basePath));
      await plugin.contentLoaded?.({...args, actions: {...args.actions, addRoute}});
    },
    /**
     * With trailingSlash: false the page is written to docs.html beside the docs/ folder. Static
     * hosts that answer /docs/ from docs/index.html (GitHub Pages) get a copy there too.
     */
    async postBuild({outDir}) {
      const relative = basePath.replace(/^\//, '');
      await mkdir(path.join(outDir, relative), {recursive: true});
      await copyFile(path.join(outDir, `${relative}.html`), path.join(outDir, relative, 'index.html'));
    },
  };
}

export {validateOptions} from '@docusaurus/plugin-content-docs';
