// One linter (ESLint with typescript-eslint) and one formatter (Prettier), run by `npm run lint`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/.tare/',
      'coverage/',
      'examples/.snippets/',
      // Built from packages/client/src/picker (a test checks it is what the sources make).
      'extensions/tare-measure-picker/assets/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The admin's scripts run in the browser.
  { files: ['packages/server/src/admin/web/assets/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
);
