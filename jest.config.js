/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
  // Each test file loads the app and an in-memory database of its own, and a worker keeps some of
  // every file it ran: its WebAssembly memory (PGlite) grows far beyond the JS heap, to 10 GB over a
  // run. Jest measures only the heap, which grows with it (about 30 MB a file): a worker whose heap
  // passes this after a file is replaced, which keeps its whole footprint to a few GB.
  workerIdleMemoryLimit: '300MB',
  // Coverage, with `--coverage` (CI's PostgreSQL pass; .ci/run): the modules that move money, each held
  // to a floor a little under what that pass reaches (measured), so code there that no test runs fails
  // CI. Only these files are instrumented (istanbul, over swc's output and its source maps): a few per
  // cent on the pass, where V8's coverage slows every script of every test by about a third.
  collectCoverageFrom: ['src/modules/{ledger,funding,execution,webhooks}/**/*.ts'],
  coverageReporters: [['text', { skipFull: true }], 'json-summary'],
  // Measured on that pass (2026-11-27): ledger 89.2 % of statements, 73.3 % of branches, 88.2 % of
  // functions, 95.2 % of lines; funding 95.9, 83.6, 96.4, 98.4; execution 93.2, 84.2, 94.6, 94.7;
  // webhooks 90.0, 86.1, 91.0, 95.6. Each floor is about two points under (one function under, in the
  // small ledger and funding modules, where one function is several points).
  coverageThreshold: {
    './src/modules/ledger/': { statements: 87, branches: 71, functions: 82, lines: 93 },
    './src/modules/funding/': { statements: 93, branches: 81, functions: 92, lines: 96 },
    './src/modules/execution/': { statements: 91, branches: 82, functions: 92, lines: 92 },
    './src/modules/webhooks/': { statements: 88, branches: 84, functions: 89, lines: 93 },
  },
};
