/**
 * The browser's code highlighter, loaded on demand.
 *
 * Pages arrive with their code already highlighted by the server, and hydration keeps that markup
 * (src/theme/CodeBlock/Content), so a first visit never needs Prism: it stays out of main.js
 * (about 30 KB gzipped, and its start-up work on a phone). Prism loads only when a code block is
 * rendered in the browser, after a client-side navigation; until it arrives the code shows as
 * plain text. The server build uses server.ts instead (plugins/code-blocks).
 */
import type {CodeHighlighter, CodeHighlighterModule} from './types';

let ready: CodeHighlighter | undefined;
let loading: Promise<CodeHighlighter> | undefined;

export const getHighlighter: CodeHighlighterModule['getHighlighter'] = () => ready;

export const loadHighlighter: CodeHighlighterModule['loadHighlighter'] = () => {
  loading ??= import(/* webpackChunkName: "prism" */ './prism').then(
    ({highlighter}) => (ready = highlighter),
    (error: unknown) => {
      loading = undefined; // a later code block may try again
      throw error;
    },
  );
  return loading;
};
