// @ts-check
// Lint (`npm run lint`, part of `npm test`): typescript-eslint's recommended rules with type
// information for the promise rules, type-only imports written as such, and the architecture's
// one import rule a linter sees best: src/core never imports vscode (it runs in plain Node: the
// tests, the command-line runner). Layer order and cycles: .dependency-cruiser.cjs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', '.vscode-test/**', 'media/vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      'no-control-regex': 'off',
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core runs in plain Node: pass what it needs in from src/ui.' }] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        exports: 'writable',
        global: 'readonly',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        performance: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The webview pages: browser scripts (types: media/tsconfig.json, checked by npm run typecheck).
    files: ['media/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'navigator',
          'console',
          'getComputedStyle',
          'requestAnimationFrame',
          'cancelAnimationFrame',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'MutationObserver',
          'ResizeObserver',
          'CustomEvent',
          'Event',
          'HTMLElement',
          'HTMLInputElement',
          'HTMLButtonElement',
          'HTMLOListElement',
          'HTMLLIElement',
          'HTMLTableElement',
          'HTMLTableRowElement',
          'HTMLTableCellElement',
          'HTMLSelectElement',
          'Intl',
          'acquireVsCodeApi',
          'uPlot',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
