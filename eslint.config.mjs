// Lint config for this repository itself.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import eslintPlugin from 'eslint-plugin-eslint-plugin';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/out/**',
      '.tools/**',
      'test-output/**',
      'test/fixtures/**',
      'examples/**',
      'test/**/fixtures/**',
      'extension/test/fixtures/**',
      'corpus/apps/.checkout/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['eslint-plugin/src/rules/**/*.ts'],
    ...eslintPlugin.configs.recommended,
  },
  {
    // The model answers questions about locks; rules report and fixes edit. The model never
    // reaches into either, so one analysis serves every rule and the editor alike.
    files: ['eslint-plugin/src/model/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/fixes/*', '**/rules/*'], message: 'The model imports nothing from fixes/ or rules/.' }],
        },
      ],
    },
  },
  {
    // Rule tests construct the shared RuleTester, which checks every suggestion's size bound.
    files: ['test/**/*.ts'],
    ignores: ['test/eslint-plugin/support/rule-tester.ts', 'test/support/setup.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@typescript-eslint/rule-tester',
              importNames: ['RuleTester'],
              allowTypeImports: true,
              message: 'Use RuleTester from test/eslint-plugin/support/rule-tester.ts: it bounds every suggestion.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
);
