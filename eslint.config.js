import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'drizzle', 'data', 'coverage', 'test-results', '**/routeTree.gen.ts'] },
  js.configs.recommended,
  // Type-aware: floating and misused promises, needless assertions, unsafe `any` flows.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Test helpers and a few library boundaries are typed loosely on purpose.
      '@typescript-eslint/no-explicit-any': 'warn',
      // An async function that satisfies a Promise-returning contract (job handlers, route
      // handlers, stubs) needs no await; unawaited promises are caught by no-floating-promises.
      '@typescript-eslint/require-await': 'off',
      // React ignores what an event handler returns; the handlers catch their own failures.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Plain JavaScript (configs, scripts) is not in the TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests read JSON answers as `any` on purpose (they assert on what a caller sees); the
    // unsafe-any family would only add casts that prove nothing.
    files: ['tests/**/*.ts', '**/*.test.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'src/portal/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
