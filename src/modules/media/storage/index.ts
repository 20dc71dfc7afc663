import { type Config, mediaStorageOf } from '../../../config.ts';
import { directoryStorage } from './directory-storage.ts';
import { memoryStorage } from './memory-storage.ts';
import { s3Storage } from './s3-storage.ts';
import type { MediaStorage } from './storage.ts';

export type { MediaStorage };

/** The storage the configuration chooses (docs/media.md). */
export function openMediaStorage(config: Config): MediaStorage {
  const choice = mediaStorageOf(config);
  if (choice.kind === 's3') return s3Storage(choice.s3);
  if (choice.kind === 'memory') return memoryStorage();
  return directoryStorage(choice.dir);
}
