/**
 * Prism with the site's additional languages (themeConfig.prism.additionalLanguages), as
 * theme-classic's prism-include-languages client module sets it up. In the browser this module is
 * its own chunk, loaded only when a code block has to be highlighted there (see client.ts).
 */
import {Highlight, Prism} from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';
import type {CodeHighlighter} from './types';

prismIncludeLanguages(Prism);

export const highlighter: CodeHighlighter = {Highlight};
