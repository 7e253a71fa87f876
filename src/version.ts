/** The interface version this build serves (the interface documents' version string). */
export const API_VERSION = '2026-04-17.m3';
/** The package version. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const VERSION: string = (require('../package.json') as { version: string }).version;
