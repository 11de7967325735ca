// DocSearch 3.9 ships these entry points without type declarations.
declare module '@docsearch/react/modal' {
  export {DocSearchModal} from '@docsearch/react';
}

// @types/react-dom is not installed; only createPortal is used (SearchModal.tsx).
declare module 'react-dom';
