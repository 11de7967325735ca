/** Server-side rendering highlights synchronously, so every page's HTML has its code coloured. */
import {highlighter} from './prism';
import type {CodeHighlighterModule} from './types';

export const getHighlighter: CodeHighlighterModule['getHighlighter'] = () => highlighter;
export const loadHighlighter: CodeHighlighterModule['loadHighlighter'] = () => Promise.resolve(highlighter);
