/**
 * patches/ edits installed packages (DocSearch's bundle so the error screen can show, Docusaurus's
 * Link so it does not prefetch every visible route, and more: see each patch). Rspack's
 * persistent cache treats node_modules as immutable (keyed by package version), so a build after
 * applying or losing a patch would silently reuse the other variant: the cache version gets a
 * hash of the patched files, so the cache is rebuilt whenever one of them changes.
 */
import {createHash} from 'node:crypto';
import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

interface PersistentCache {
  type: 'persistent';
  version?: string;
}

export default function patchedModulesCache(context: LoadContext): Plugin {
  const patchesHash = patchedFilesHash(path.resolve(context.siteDir, '..'));
  return {
    name: 'patched-modules-cache',
    configureWebpack(config) {
      const cache = (config as {experiments?: {cache?: unknown}}).experiments?.cache as PersistentCache | undefined;
      return cache?.type === 'persistent'
        ? {experiments: {cache: {...cache, version: `${cache.version ?? ''}-patches-${patchesHash}`}}}
        : {};
    },
  };
}

/** A hash of every node_modules file that a patch in patches/ edits, as it is on disk now. */
function patchedFilesHash(repoRoot: string): string {
  const dir = path.join(repoRoot, 'patches');
  const hash = createHash('sha256');
  for (const patch of readdirSync(dir).filter((f) => f.endsWith('.patch')).sort()) {
    for (const [, file] of readFileSync(path.join(dir, patch), 'utf8').matchAll(/^\+\+\+ b\/(node_modules\/\S+)$/gm)) {
      hash.update(file!).update(readFileSync(path.join(repoRoot, file!)));
    }
  }
  return hash.digest('hex').slice(0, 12);
}
