// Lint rules: typescript-eslint's recommended and type-aware sets, and the import rules
// that keep the architecture (core never sees VS Code or the webview wire, and of src/shared
// only the data-only shapes.ts; the webview never sees VS Code).
import tseslint from 'typescript-eslint';

/** @param {unknown[]} patterns @returns {['error', { patterns: unknown[] }]} */
const restrict = (patterns) => ['error', { patterns }];
const vscodeBan = { group: ['vscode'], message: 'Only src/extension talks to VS Code.' };
const wireBan = {
  group: ['**/shared/**', '!**/shared/shapes'],
  message: 'src/core imports only src/shared/shapes.ts (data-only shapes); presenters in src/extension translate to the wire.',
};
const upBan = { group: ['**/extension/**', '**/cli/**'], message: 'src/core never imports the layers above it.' };

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'build/**', '.cache/**', '.demo/**', 'test-results/**', 'bench/data/**'],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './webview/tsconfig.json', './scripts/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/explicit-function-return-type': [
        'error',
        { allowExpressions: true, allowTypedFunctionExpressions: true, allowHigherOrderFunctions: true },
      ],
      // unused names in .ts files: the compiler's noUnusedLocals and noUnusedParameters (npm run typecheck)
      '@typescript-eslint/no-unused-vars': 'off',
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          ignoreVoid: true,
          allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }],
        },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      // an async function without await is a fine way to say "returns a promise"
      '@typescript-eslint/require-await': 'off',
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' }],
    },
  },
  // in the product, a promise nobody waits for is handled where it starts (src/extension/background.ts):
  // `void` does not do, so that a failure is one line in the output channel or the user's message, never lost
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      'no-empty': 'error',
    },
  },
  { files: ['src/core/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': restrict([vscodeBan, wireBan, upBan]) } },
  { files: ['webview/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': restrict([vscodeBan]) } },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        vscodeBan,
        { group: ['**/core/**', '**/extension/**', '**/cli/**'], message: 'src/shared stands alone.' },
      ]),
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        vscodeBan,
        { group: ['**/extension/**'], message: 'The CLI stands on src/core.' },
      ]),
    },
  },
  // the build, test and demo scripts: plain JavaScript (typechecked through JSDoc by
  // scripts/tsconfig.json), linted without the type-aware rules
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { project: false, program: null, projectService: false } },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/explicit-function-return-type': 'off',
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // ESLint reads its configuration from the default export
  { files: ['eslint.config.mjs'], rules: { 'no-restricted-syntax': 'off' } },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/explicit-function-return-type': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
