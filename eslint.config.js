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
      // The fixture sites' committed build output (a service worker among it), as Docusaurus wrote it.
      'indexer/test/sites/*/html/**',
      // The examples test/api-v2-examples.test.ts writes and runs, while .ci/run lints beside the tests.
      'site/test/.example-*',
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
