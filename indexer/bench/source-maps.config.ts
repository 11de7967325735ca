/**
 * The site's own Docusaurus config with one plugin added: the browser bundle gets hidden source
 * maps (`.map` files beside the scripts, no reference in them), so that breakdown.ts can say which
 * package each byte of the first visit's JavaScript comes from. Used only by the bench
 * (`docusaurus build --config <this file> --out-dir build-source-maps`, with BENCH_SITE_DIR set),
 * never for the site itself.
 */
import type {Config} from '@docusaurus/types';
import {loadSiteConfig} from './site-config.ts';

export default async function createConfig(): Promise<Config> {
  const site = await loadSiteConfig();
  return {
    ...site,
    plugins: [
      ...(site.plugins ?? []),
      () => ({
        name: 'bench-source-maps',
        configureWebpack: (_config: unknown, isServer: boolean) => (isServer ? {} : {devtool: 'hidden-source-map' as const}),
      }),
    ],
  };
}
