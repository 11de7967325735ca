import type {Highlight} from 'prism-react-renderer';

/** What a code block needs to highlight: prism-react-renderer's Highlight, its Prism ready with our languages. */
export interface CodeHighlighter {
  Highlight: typeof Highlight;
}

/** The same two functions from client.ts (browser) and server.ts (server-side rendering). */
export interface CodeHighlighterModule {
  /** The highlighter if it is ready now, else undefined. */
  getHighlighter(): CodeHighlighter | undefined;
  /** Loads the highlighter (once) and resolves with it. */
  loadHighlighter(): Promise<CodeHighlighter>;
}
