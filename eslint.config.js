// ESLint: the recommended rules of ESLint, typescript-eslint, React's hooks and jsx-a11y.
// Formatting is Prettier's job (.prettierrc.json); nothing here argues about layout.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'storybook-static/',
      'demo/dist/',
      '.demo-build/',
      '.demo-data/',
      'coverage/',
      'test-results/',
      'examples/*/.next/',
      'examples/*/node_modules/',
      'examples/*/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // A scrolling region must be reachable by keyboard (WCAG 2.1.1), so a labelled `region` may
      // take focus; the JSON details are one.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'] }],
      // `_name` marks a parameter a signature needs and the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read AG-UI wire events (a wide union) and feed deliberately wrong input; a cast to
    // `any` there is the point, and the test asserts whatever it reads. Library code may not.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
