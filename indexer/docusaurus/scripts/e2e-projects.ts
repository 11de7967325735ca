#!/usr/bin/env node
/**
 * Rewrites the browser tests' latest and oldest projects (e2e/projects/<kind>/package.json and
 * package-lock.json) from the public npm registry: what each holds before the theme is installed
 * (e2e/projects.ts). Run it after upgrading Docusaurus in this repository (the setup refuses a
 * latest project whose lock holds another @docusaurus/core) or changing what e2e/sites.ts says a
 * project holds. Usage: npm run e2e:projects --workspace docusaurus-theme-docs-search
 */
import process from 'node:process';
import {writeProjects} from '../e2e/projects.ts';

try {
  for (const line of await writeProjects()) console.log(line);
} catch (error) {
  console.error(`e2e:projects: ${(error as Error).message}`);
  process.exit(1);
}
