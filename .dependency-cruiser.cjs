/**
 * Import cycles are refused everywhere in src/ and rest-adapter/, type-only imports
 * included (tsPreCompilationDeps): a cycle through types still ties the files'
 * meanings together. ESLint's no-restricted-imports (eslint.config.js) holds the
 * layer boundaries; this file only finds cycles, which ESLint cannot see through types.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module reaches itself through its imports (type-only imports count).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|src/db/generated)/' },
  },
};
