// @types/react-dom is not installed; only createPortal is used (src/server-article).
declare module 'react-dom';
