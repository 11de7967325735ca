/**
 * Code colours as CSS, not as inline styles.
 *
 * prism-react-renderer colours each token with an inline `style` taken from the Prism theme of the
 * current colour mode. The server always renders the light theme, so Docusaurus's CodeBlock remounts
 * every code block after hydration (`key={isBrowser}`) to pick up the dark theme: on a long API page
 * that is a synchronous re-render of every block, hundreds of milliseconds of main thread on a
 * phone. Instead both themes become one stylesheet keyed on `html[data-theme]`, the Prism theme given
 * to Docusaurus has no token styles (so tokens carry only their classes), and our CodeBlock
 * (src/theme/CodeBlock) does not remount. Served by plugins/code-blocks/index.ts.
 *
 * Rules follow the theme's entry order, so a later entry wins over an earlier one for a token with
 * both types, as with prism-react-renderer's own merge.
 */
import type {PrismTheme} from 'prism-react-renderer';

/** The theme Docusaurus gets for both modes: plain colours as CSS variables, no token styles. */
export const cssVariablePrismTheme: PrismTheme = {
  plain: {color: 'var(--code-color)', backgroundColor: 'var(--code-background)'},
  styles: [],
};

const kebab = (property: string) => property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function declarations(style: object): string {
  return Object.entries(style)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([property, value]) => `${kebab(property)}:${String(value)}`)
    .join(';');
}

function themeRules(mode: 'light' | 'dark', theme: PrismTheme): string {
  const scope = `[data-theme=${mode}]`;
  const plain = `${scope}{--code-color:${theme.plain.color ?? 'inherit'};--code-background:${theme.plain.backgroundColor ?? 'transparent'}}`;
  const tokens = theme.styles
    .filter((entry) => !entry.languages)
    .map((entry) => `${entry.types.map((type) => `${scope} .token.${type}`).join(',')}{${declarations(entry.style)}}`);
  return [plain, ...tokens].join('\n');
}

/** The stylesheet for both modes, for a `<style>` in every page's head. */
export function codeThemeCss(light: PrismTheme, dark: PrismTheme): string {
  return `${themeRules('light', light)}\n${themeRules('dark', dark)}`;
}
