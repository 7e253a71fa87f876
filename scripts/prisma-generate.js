// postinstall: generate the Prisma client offline. The CLI wants a native schema
// engine path even for `generate`, which never runs it; any existing file will do.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], {
  cwd: path.resolve(__dirname, '..'),
  env,
  stdio: 'inherit',
});
