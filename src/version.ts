import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-root';

/** The interface version this build serves (the interface documents' version string). */
export const API_VERSION = '2026-04-17.m4';
/** The package version (read from the project's package.json, from the sources and from dist/ alike). */
export const VERSION: string = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
