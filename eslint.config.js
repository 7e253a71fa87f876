// Lint: typescript-eslint's recommended rules over the TypeScript sources, lines of at most 120
// characters outside data files (Prettier wraps code; this catches long strings and comments), and
// the layer boundaries of the house (import cycles are refused by dependency-cruiser, which sees
// type-only imports too: .dependency-cruiser.cjs).
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const stylistic = require('@stylistic/eslint-plugin');

/** Resolvers are named only by their module's manifest (the schema reads the registry). */
const RESOLVERS_ONLY_IN_MANIFESTS = {
  regex: '\\.resolver$',
  message: "A resolver is listed in its module's manifest (<domain>.module.ts) and imported nowhere else.",
};
/** Central files name no domain's resolver or loader: they read the registry. */
const NO_DOMAIN_INTERNALS = {
  regex: '\\.(resolver|loaders)$',
  message: 'Central files read the module registry; they name no resolver or loader of a domain.',
};
const restricted = (...patterns) => ['error', { patterns }];

module.exports = tseslint.config(
  {
    ignores: [
      'node_modules/',
      'src/db/generated/',
      'schema/generated/',
      'examples/generated/',
      '.data/',
      'coverage/',
      'dist/',
    ],
  },
  js.configs.recommended,
  // Type-aware: floating and misused promises (an Express 5 handler, a listener), unsafe `any`.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // In-process implementations of async contracts (memory cache, simulated venues and clients) are
      // `async` without awaiting so that a throw reaches the caller as a rejection, as it does from the
      // Redis or HTTP implementation; dropping `async` as this rule asks would change that.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Jest's asymmetric matchers (`expect.any(String)`, `expect.stringMatching(…)`) are typed `any`.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    files: ['**/*.ts', '**/*.js'],
    ignores: ['**/*.data.ts'],
    plugins: { '@stylistic': stylistic },
    rules: { '@stylistic/max-len': ['error', { code: 120, ignoreUrls: true }] },
  },
  {
    files: ['**/*.ts'],
    ignores: ['src/modules/**/*.module.ts'],
    rules: { 'no-restricted-imports': restricted(RESOLVERS_ONLY_IN_MANIFESTS) },
  },
  {
    files: ['src/modules/**/index.ts'],
    rules: {
      'no-restricted-imports': restricted({
        regex: '\\.(resolver|loaders|module)$',
        message: 'A barrel hands on services, models and limits; never resolvers, loaders or the manifest.',
      }),
    },
  },
  {
    files: ['rest-adapter/**/*.ts'],
    rules: {
      'no-restricted-imports': restricted({
        regex: '^\\.\\./src/(?!.+\\.(limits|models)$|http/|errors/)',
        message:
          'The REST adapter runs GraphQL documents: from src/ it reads *.limits, *.models, src/http, src/errors.',
      }),
    },
  },
  {
    files: ['src/context.ts', 'src/services.ts', 'src/server.ts', 'src/main.ts', 'src/graphql/**', 'src/http/**'],
    rules: { 'no-restricted-imports': restricted(NO_DOMAIN_INTERNALS) },
  },
  {
    files: ['src/kernel/**'],
    rules: {
      'no-restricted-imports': restricted(NO_DOMAIN_INTERNALS, {
        regex: '^\\.\\./(modules|services|server)(/|$)',
        message: 'The kernel is the contract modules build on: it imports no module and not the composition root.',
      }),
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
