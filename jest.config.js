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
};
