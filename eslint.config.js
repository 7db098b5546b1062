// ESLint: the recommended rules of ESLint, typescript-eslint, React's hooks and jsx-a11y.
// Formatting is Prettier's job (.prettierrc.json); nothing here argues about layout.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/', 'storybook-static/', 'demo/dist/', '.demo-build/', 'coverage/', 'test-results/', 'examples/*/.next/', 'examples/*/node_modules/', 'examples/*/next-env.d.ts'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
