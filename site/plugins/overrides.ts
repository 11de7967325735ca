/**
 * The site's inventory of framework overrides (site/overrides.json, explained in site/OVERRIDES.md).
 * A build may leave some out (`createSiteConfig({without})` in site-config.ts, which the
 * bench's site-variant.config.ts calls with its SITE_WITHOUT list): the config and the plugins ask
 * `keeps(without, name)`.
 */
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

const load = createRequire(import.meta.url);

export interface PinnedFile {
  /** The npm package the file belongs to. */
  package: string;
  /** The file's path inside the package. */
  file: string;
  /** The package's version when the override was written against the file. */
  version: string;
  /** sha256 (hex) of the file then. */
  sha256: string;
}

export interface Override {
  /** kebab-case: the name SITE_WITHOUT takes. */
  name: string;
  purpose: 'speed' | 'accessibility' | 'spec';
  /** Whether SITE_WITHOUT may switch it off. */
  switchable: boolean;
  replaces: string;
  extensionPoint: string;
  /** Our files (relative to site/). */
  files: string[];
  /** Swizzled theme components that SITE_WITHOUT sends back to the theme's own. */
  themeComponents?: string[];
  pinned: PinnedFile[];
}

export const OVERRIDES_FILE = path.join(path.dirname(load.resolve('../package.json')), 'overrides.json');

export const OVERRIDES: readonly Override[] = (JSON.parse(readFileSync(OVERRIDES_FILE, 'utf8')) as {overrides: Override[]}).overrides;

export type OverrideName = string;

/**
 * The overrides named in `value` (SITE_WITHOUT's format: names separated by commas, spaces
 * allowed). Throws a one-line error for a name that is not in the inventory or cannot be switched off.
 */
export function parseWithout(value: string | undefined): ReadonlySet<OverrideName> {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    const override = OVERRIDES.find((o) => o.name === name);
    if (!override) {
      throw new Error(`SITE_WITHOUT: no override named "${name}" (site/overrides.json has: ${OVERRIDES.filter((o) => o.switchable).map((o) => o.name).join(', ')})`);
    }
    if (!override.switchable) throw new Error(`SITE_WITHOUT: "${name}" cannot be switched off (see site/OVERRIDES.md)`);
  }
  return new Set(names);
}

/** True when a build that leaves out `without` keeps the override `name`. */
export function keeps(without: readonly OverrideName[] | undefined, name: OverrideName): boolean {
  if (!OVERRIDES.some((o) => o.name === name)) throw new Error(`overrides.json has no override named "${name}"`);
  return !(without ?? []).includes(name);
}

/** The folder of an installed package (its `exports` may hide package.json: found from its entry). */
export function packageDir(name: string, from: string = OVERRIDES_FILE): string {
  const require = createRequire(from);
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    let dir = path.dirname(require.resolve(name));
    while (dir !== path.dirname(dir)) {
      try {
        const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {name?: string};
        if (pkg.name === name) return dir;
      } catch {
        // no package.json here
      }
      dir = path.dirname(dir);
    }
    throw new Error(`cannot find the folder of ${name}`);
  }
}
