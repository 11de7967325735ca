/**
 * What the early search box (src/client/shell.inline.js) needs from the build: its texts in the
 * site's locale, and in local mode the URL of its answering module (src/client/early-search.ts,
 * bundled into lib/early/) with what that module needs to ask the modal's question on any page
 * (the index, the locale, the docs plugins' versions for contextual search, the searchParameters,
 * how result URLs are rewritten).
 */
import {createHash} from 'node:crypto';
import {existsSync, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import type {EarlySearchConfig, EarlyDocsPlugin} from './early-types.ts';

export type {EarlySearchConfig, EarlyDocsPlugin};

/** The bundled module and worker, relative to this file once compiled (lib/early-config.js → lib/early/). */
export const EARLY_FILES = {
  module: fileURLToPath(new URL('./early/early-search.js', import.meta.url)),
  worker: fileURLToPath(new URL('./early/early-worker.js', import.meta.url)),
};

/** Their paths in the build (beside the local index), each with its content hash in the name. */
export function earlyPaths(): {module: string; worker: string} | null {
  if (!existsSync(EARLY_FILES.module) || !existsSync(EARLY_FILES.worker)) return null;
  const named = (file: string, name: string) => `search/${name}.${createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 10)}.js`;
  return {module: named(EARLY_FILES.module, 'early-search'), worker: named(EARLY_FILES.worker, 'early-worker')};
}

/**
 * The theme's own texts (no Docusaurus translation has them: the early box's two, the
 * development server's notice and the accessible name of /search's docs-version select), by
 * language; a site's code.json can override them by id like any theme text.
 */
const SHELL_TEXTS: Record<string, Record<string, string>> = {
  en: {
    'theme.SearchShell.devServer': 'Search is not available on the development server: the local search index is made from the built pages. Run {build} then {serve} to search.',
    'theme.SearchShell.loading': 'Loading search…',
    'theme.SearchShell.failed': 'Search could not load. Press Enter to search on the search page.',
    'theme.SearchPage.docsVersionLabel': 'Docs version',
  },
  fr: {
    'theme.SearchShell.devServer': 'La recherche n’est pas disponible sur le serveur de développement : l’index de recherche local est construit à partir des pages générées. Lancez {build} puis {serve} pour chercher.',
    'theme.SearchShell.loading': 'Chargement de la recherche…',
    'theme.SearchShell.failed': 'La recherche n’a pas pu être chargée. Appuyez sur Entrée pour chercher sur la page de recherche.',
    'theme.SearchPage.docsVersionLabel': 'Version de la documentation',
  },
  de: {
    'theme.SearchShell.devServer': 'Die Suche ist auf dem Entwicklungsserver nicht verfügbar: Der lokale Suchindex wird aus den gebauten Seiten erstellt. Führen Sie {build} und dann {serve} aus, um zu suchen.',
    'theme.SearchShell.loading': 'Suche wird geladen…',
    'theme.SearchShell.failed': 'Die Suche konnte nicht geladen werden. Drücken Sie die Eingabetaste, um auf der Suchseite zu suchen.',
    'theme.SearchPage.docsVersionLabel': 'Version der Dokumentation',
  },
  nl: {
    'theme.SearchShell.devServer': 'Zoeken is niet beschikbaar op de ontwikkelserver: de lokale zoekindex wordt gemaakt uit de gebouwde pagina’s. Voer {build} en dan {serve} uit om te zoeken.',
    'theme.SearchShell.loading': 'Zoeken wordt geladen…',
    'theme.SearchShell.failed': 'Zoeken kon niet worden geladen. Druk op Enter om op de zoekpagina te zoeken.',
    'theme.SearchPage.docsVersionLabel': 'Versie van de documentatie',
  },
};

/** The box's default texts for `locale` ('fr-CA' falls back to 'fr', then English). */
export function shellDefaultTexts(locale: string): Record<string, string> {
  return {...SHELL_TEXTS.en, ...(SHELL_TEXTS[locale] ?? SHELL_TEXTS[locale.split('-')[0]!.toLowerCase()] ?? {})};
}

/** The docs plugins as allContentLoaded gives them, reduced to what contextual search reads. */
export function earlyDocsPlugins(allContent: Record<string, Record<string, unknown> | undefined>): EarlyDocsPlugin[] {
  const docs = allContent['docusaurus-plugin-content-docs'] ?? {};
  return Object.entries(docs).map(([id, content]) => {
    const loaded = ((content as {loadedVersions?: {versionName: string; path: string; isLast: boolean}[]} | undefined)?.loadedVersions ?? []);
    const versions = loaded.map((v) => ({name: v.versionName, path: v.path, last: v.isLast}));
    // The plugin's base path is its shortest version path (the last version's, unless configured).
    const path = versions.map((v) => v.path).sort((a, b) => a.length - b.length)[0] ?? '/';
    return {id, path, versions};
  });
}
