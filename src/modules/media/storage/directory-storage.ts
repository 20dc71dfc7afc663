import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { assertSafeKey, assertSafePrefix, type MediaStorage } from './storage.ts';

/**
 * Files under one directory (`media.dir`, default `DATA_DIR/media`): one instance, or several
 * sharing a network file system. A file is written beside its place and renamed into it, so a
 * reader sees it whole or not at all.
 */
export function directoryStorage(dir: string): MediaStorage {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(root, key);
  };
  /** A place beside the file's own, renamed into it once written. */
  const beside = async (key: string) => {
    const path = pathOf(key);
    await mkdir(join(path, '..'), { recursive: true });
    return { path, partial: `${path}.${randomBytes(6).toString('hex')}.part` };
  };
  return {
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async put(key, bytes) {
      const { path, partial } = await beside(key);
      await writeFile(partial, bytes);
      await rename(partial, path);
    },
    async putFile(key, from) {
      const { path, partial } = await beside(key);
      await copyFile(from, partial);
      await rename(partial, path);
    },
    async removeAll(prefix) {
      assertSafePrefix(prefix);
      await rm(join(root, prefix), { recursive: true, force: true });
    },
  };
}
