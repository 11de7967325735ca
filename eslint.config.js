import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'site/build/**',
      'site/build-*/**',
      'site/.docusaurus/**',
      'site/test-results/**',
      'indexer/bench/results/**',
      'indexer/dist/**',
      'indexer/search/dist/**',
      'indexer/docusaurus/lib/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // CommonJS modules (site/chrome.cjs) run in Node.
    files: ['**/*.cjs'],
    languageOptions: {sourceType: 'commonjs', globals: {exports: 'writable', module: 'writable', require: 'readonly', process: 'readonly'}},
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}],
    },
  },
);
