/**
 * Where image files are kept. Keys are made by the media module only (`<asset id>/<name>` from
 * fixed tokens), never from what a client sent; an implementation may still refuse anything else.
 */
export interface MediaStorage {
  /** The file's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Writes the file whole (a reader never sees half of it). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Writes the file at `path` (a local file the caller removes after), without reading it whole. */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** Removes every file whose key starts with `prefix` (an asset's original and copies). */
  removeAll(prefix: string): Promise<void>;
  /** Releases connections; nothing is lost. */
  close?(): Promise<void>;
}

const SAFE_KEY = /^[0-9]+\/[a-z0-9][a-z0-9.-]{0,63}$/;
const SAFE_PREFIX = /^[0-9]+\/$/;

/** Refuses a key the media module would not make: no path can escape the storage's root. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..'))
    throw new Error(`media storage: refused key ${JSON.stringify(key)}`);
}

export function assertSafePrefix(prefix: string): void {
  if (!SAFE_PREFIX.test(prefix)) throw new Error(`media storage: refused prefix ${JSON.stringify(prefix)}`);
}
