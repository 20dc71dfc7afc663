import { readFile } from 'node:fs/promises';
import { assertSafeKey, assertSafePrefix, type MediaStorage } from './storage.ts';

/** Files in the process's memory: tests and `DATA_DIR=memory://`; gone when the process ends. */
export function memoryStorage(): MediaStorage {
  const files = new Map<string, Buffer>();
  return {
    async get(key) {
      assertSafeKey(key);
      return files.get(key);
    },
    async put(key, bytes) {
      assertSafeKey(key);
      files.set(key, bytes);
    },
    async putFile(key, path) {
      assertSafeKey(key);
      files.set(key, await readFile(path));
    },
    async removeAll(prefix) {
      assertSafePrefix(prefix);
      for (const key of [...files.keys()]) if (key.startsWith(prefix)) files.delete(key);
    },
  };
}
