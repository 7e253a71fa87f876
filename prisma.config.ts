import { defineConfig } from 'prisma/config';

// Only `prisma generate` uses this file: migrations run through the project's own
// wasm schema-engine script (scripts/migrate.ts), which works offline.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
