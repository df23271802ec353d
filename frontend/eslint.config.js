import { defineConfig, globalIgnores } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

// Architecture lint (`npm run lint`, part of `npm run build`). Feature folders do not
// import each other: a piece two features need moves to src/lib, src/components or
// src/api, and pages that span features are composed in src/routes. Shared code never
// imports a feature or a route either, so the arrows only point one way:
//   routes -> features -> (lib, components, api)
// eslint-plugin-boundaries resolves every import to the file it names (so `../billing/x`
// and `../../features/billing/x` are the same dependency) and classifies it by folder.

/** Folders of shared code: anyone may import them; they import no feature or route. */
const SHARED = ['lib', 'components', 'api', 'hooks', 'test'];

export default defineConfig(
  globalIgnores(['dist/**', 'src/api/gen/**', 'src/routeTree.gen.ts', 'test-results/**']),
  {
    files: ['src/**/*.{ts,tsx}'],
    // The TypeScript parser only: this lint checks the architecture, not style.
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      'boundaries/elements': [
        { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
        { type: 'route', pattern: 'src/routes' },
        ...SHARED.map((folder) => ({ type: 'shared', pattern: `src/${folder}` })),
      ],
      // Re-exports and lazy imports are dependencies too.
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // Imports inside one feature folder are internal to it and not checked.
          policies: [
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { type: 'feature' } } },
              message:
                'Feature folders must not import each other ({{from.captured.feature}} imports {{to.captured.feature}}): move the shared piece to src/lib, src/components or src/api, or compose both in a route.',
            },
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { type: 'route' } } },
              message: 'A feature must not import a route: routes compose features, not the other way round.',
            },
            {
              from: { element: { type: 'shared' } },
              disallow: { to: { element: { types: { anyOf: ['feature', 'route'] } } } },
              message: 'Shared code (src/lib, src/components, src/api) must not import a feature or a route.',
            },
          ],
        },
      ],
    },
  },
);
