/**
 * Docusaurus plugin: publishes every registered API description (site/api, see
 * api/tooling/documents.ts) as a downloadable file under /api/ in the built site.
 */
import {copyFileSync, mkdirSync} from 'node:fs';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import {API_DOCUMENTS, apiFile} from '../api/tooling/documents';

export default function apiPublish(): Plugin {
  return {
    name: 'api-publish',
    getPathsToWatch() {
      return Object.keys(API_DOCUMENTS).map(apiFile);
    },
    async postBuild({outDir}) {
      const target = path.join(outDir, 'api');
      mkdirSync(target, {recursive: true});
      for (const [id, file] of Object.entries(API_DOCUMENTS)) copyFileSync(apiFile(id), path.join(target, file));
    },
  };
}
