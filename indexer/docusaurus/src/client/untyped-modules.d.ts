// DocSearch 3.9 ships this entry point without type declarations.
declare module '@docsearch/react/modal.js' {
  export {DocSearchModal} from '@docsearch/react';
}

// @types/react-dom is not a dependency; only createPortal is used (SearchModal.tsx).
declare module 'react-dom';
