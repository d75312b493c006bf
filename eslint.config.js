// ESLint flat config: typescript-eslint's recommended rules over the service,
// its tests and scripts (Node globals), and the browser code under web/.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/**', 'packages/*/dist/**', '.test-build/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: { '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }] },
  },
  {
    // Tests read JSON responses whose shape is what they assert; typing them would restate the schemas.
    files: ['test/**/*.ts', 'src/**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  { files: ['**/*.mjs', 'bin/**/*.js', 'scripts/**/*.js', 'eslint.config.js'], languageOptions: { globals: globals.node } },
  { files: ['web/**/*.js'], languageOptions: { sourceType: 'module', globals: globals.browser } },
  // The dashboard (Preact, TSX): browser code, typed by web/dashboard/tsconfig.json.
  { files: ['web/**/*.ts', 'web/**/*.tsx'], languageOptions: { globals: globals.browser } },
);
