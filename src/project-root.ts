import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The project folder: the nearest folder above this file that holds package.json.
 * That is one level up from the sources (src/) and two from the production build
 * (dist/src/; dist/ has no package.json), so files read from the project (the
 * package manifest, prisma/) resolve from both.
 */
function findProjectRoot(): string {
  for (let dir = resolve(__dirname, '..'); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
}

export const PROJECT_ROOT = findProjectRoot();
