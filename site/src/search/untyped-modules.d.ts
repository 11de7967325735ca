// DocSearch 3.9 ships this entry point without type declarations.
declare module '@docsearch/react/modal' {
  export {DocSearchModal} from '@docsearch/react';
}

// algoliasearch's browser build, imported by path (src/search/liteClient.ts) because
// `algoliasearch/lite` itself resolves to that file.
declare module 'algoliasearch/dist/lite/builds/browser' {
  export {liteClient} from 'algoliasearch/lite';
}

// @types/react-dom is not installed; only createPortal is used (SearchModal.tsx).
declare module 'react-dom';
