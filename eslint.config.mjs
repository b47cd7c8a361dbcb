// @ts-check
// Lint (`npm run lint`, part of `npm test`): typescript-eslint's recommended rules with type
// information for the promise rules, type-only imports written as such, and the architecture's
// one import rule a linter sees best: src/core never imports vscode (it runs in plain Node: the
// tests, the command-line runner). Layer order and cycles: .dependency-cruiser.cjs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The error policy (src/core/base/errors.ts), checked: an error's sentence is built with
// l10n.both (English for the log, translated for people), never l10n.t (the English line is lost);
// src/core and src/ui never throw a bare Error (LocalizedError or EndpointError, and
// rewrapped() to re-throw a caught one with its shown text).
/** l10n.t(…) or vscode.l10n.t(…). */
const isTranslate = (n) =>
  n.type === 'CallExpression' &&
  n.callee.type === 'MemberExpression' &&
  !n.callee.computed &&
  n.callee.property.type === 'Identifier' &&
  n.callee.property.name === 't' &&
  ((n.callee.object.type === 'Identifier' && n.callee.object.name === 'l10n') ||
    (n.callee.object.type === 'MemberExpression' && n.callee.object.property.type === 'Identifier' && n.callee.object.property.name === 'l10n'));
/** The l10n.t call an error's argument is made of, if any (also inside a ?:, ||, + or template). */
const translateIn = (n) => {
  if (!n) return undefined;
  if (isTranslate(n)) return n;
  if (n.type === 'ConditionalExpression') return translateIn(n.consequent) ?? translateIn(n.alternate);
  if (n.type === 'LogicalExpression' || n.type === 'BinaryExpression') return translateIn(n.left) ?? translateIn(n.right);
  if (n.type === 'TemplateLiteral') return n.expressions.map(translateIn).find(Boolean);
  return undefined;
};
const errorPolicy = {
  meta: {
    type: 'problem',
    messages: {
      both: 'An error sentence is built with l10n.both (English for the log, translated for people), not l10n.t: see src/core/base/errors.ts.',
      plain:
        'No bare Error here: throw a LocalizedError or EndpointError (l10n.both for the sentence), or rewrapped(err) to re-throw a caught one (src/core/base/errors.ts).',
    },
    schema: [{ type: 'object', properties: { plainErrors: { type: 'boolean' } }, additionalProperties: false }],
  },
  create(context) {
    const plainErrors = context.options[0]?.plainErrors === true;
    return {
      NewExpression(node) {
        if (node.callee.type !== 'Identifier' || !/Error$/.test(node.callee.name)) return;
        for (const arg of node.arguments) {
          const t = translateIn(arg);
          if (t) context.report({ node: t, messageId: 'both' });
        }
      },
      'ThrowStatement > NewExpression'(node) {
        if (!plainErrors && node.callee.type === 'Identifier' && node.callee.name === 'Error') context.report({ node, messageId: 'plain' });
      },
    };
  },
};
const local = { rules: { 'error-policy': errorPolicy } };

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
    files: ['src/**/*.ts'],
    plugins: { local },
    rules: { 'local/error-policy': ['error', { plainErrors: true }] },
  },
  {
    files: ['src/core/**/*.ts', 'src/ui/**/*.ts'],
    rules: { 'local/error-policy': ['error', { plainErrors: false }] },
  },
  {
    // One path for requests (docs/architecture.md, "One request, in one line"): every request through
    // execute() (core/chain/execute.ts) with its options from requestOptions() (core/chain/requestOptions.ts).
    files: ['src/**/*.ts'],
    ignores: ['src/core/transport/**', 'src/core/chain/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='send']:matches([callee.object.name='http'], [callee.object.property.name='http'])",
          message: 'Requests only through execute() (src/core/chain/execute.ts): its deadline, caps, redaction and secret rule.',
        },
        {
          selector: "ObjectExpression:has(> Property[key.name='timeoutMs']):has(> Property[key.name='maxBufferBytes'])",
          message: "A request's options only through requestOptions() (src/core/chain/requestOptions.ts).",
        },
      ],
    },
  },
  {
    // Settings are read and written in one module (docs/architecture.md, "Settings in one place"):
    // src/ui/base/settings.ts validates every value a workspace may set; nothing else asks the editor.
    files: ['src/**/*.ts'],
    ignores: ['src/ui/base/settings.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'getConfiguration', message: 'Settings only through src/ui/base/settings.ts (it validates what a workspace may set).' },
      ],
    },
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
