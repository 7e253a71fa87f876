// Runs the TypeScript sources directly: swc compiles each file on load with
// decorator metadata (type-graphql needs it) and the project's .swcrc.
process.env.SWCRC = 'true';
require('@swc-node/register');
