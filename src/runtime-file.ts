import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database admits one process, so a running server records where
 * it listens in DATA_DIR/server.json; the CLIs then ask it instead of opening
 * the database beside it.
 */
export interface RuntimeFile {
  pid: number;
  url: string;
}

const NAME = 'server.json';

export function writeRuntimeFile(dataDir: string, info: RuntimeFile): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, NAME), JSON.stringify(info), { mode: 0o600 });
}

export function removeRuntimeFile(dataDir: string): void {
  rmSync(path.join(dataDir, NAME), { force: true });
}

/** The running server that owns DATA_DIR, or null when none is alive. */
export function readRuntimeFile(dataDir: string): RuntimeFile | null {
  try {
    const info = JSON.parse(readFileSync(path.join(dataDir, NAME), 'utf8')) as RuntimeFile;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}
