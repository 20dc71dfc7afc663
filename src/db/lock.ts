import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is a single-process database: two servers on one data dir would corrupt it.
 * A lock file with the owner's pid keeps a second process out; a stale one (dead pid) is taken over.
 */
/** The lock file's name inside the data directory. */
export const DATA_DIR_LOCK_FILE = '.shop-api.lock';

export function acquireDataDirLock(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release: () => {
          if (existsSync(path) && readFileSync(path, 'utf8') === String(process.pid)) rmSync(path);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner)) {
        throw new DataDirLockedError(
          `data directory ${dataDir} is in use by process ${owner}; stop it or choose another DATA_DIR`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock data directory ${dataDir}`);
}
