// @types/react-dom is not installed; only createPortal is used (src/server-article).
declare module 'react-dom';

/** What renders in the browser: set by plugins/framework-modules.ts (DefinePlugin). */
declare const __SITE_RENDERER__: 'preact' | 'react';
