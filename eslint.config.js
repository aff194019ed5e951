// ESLint flat config for the whole repository (`npm run lint` = `eslint .`).
// typescript-eslint's recommended rules without type information: the type-aware set costs
// about half a minute of program start-up on this 2-core machine and `tsc` already runs in
// `npm test`, so type errors are caught there.
import js from '@eslint/js';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/coverage/**',
      '**/.tmp/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // `_name` marks a parameter or binding that is unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    // Tests may use non-null assertions and `any` where a fixture makes the shape obvious.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Server feature folders own their routes: only app.ts wires them together, so a feature
    // never imports another feature's `*-routes.ts` (share queries and helpers instead).
    files: ['apps/server/src/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../**/*-routes', '../**/*-routes.ts'],
              message: 'Feature folders do not import each other\'s routes; app.ts wires routes. Move the shared part to a repo or helper module.',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared schemas reach zod through src/zod.ts, which switches off its eval probe (the web
    // client's CSP forbids eval) before any schema parses. Type-only imports are harmless.
    files: ['packages/domain/src/**/*.ts'],
    ignores: ['packages/domain/src/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: 'Import z from src/zod.ts (it configures zod first).', allowTypeImports: true }] },
      ],
    },
  },
  {
    // The browser client.
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: {
      globals: { ...globals.browser },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Client feature folders, like the server's: a feature uses another only through that
    // feature's index.ts (its public surface), never its internal modules; shared code lives in
    // api/, ui/, live/, i18n/ and imports flow shared → features → app.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\.?/)[^/]+/(?!index\\.ts$).+$',
              message: 'Feature folders do not import each other\'s internals: import from the other feature\'s index.ts, or move the shared part to api/, ui/ or live/.',
            },
            {
              regex: '^(\\.\\./)+features/',
              message: 'Feature folders import other features through ../<feature>/index.ts only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript tooling (this file, scripts/*.mjs).
    files: ['**/*.{js,mjs,cjs}'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
