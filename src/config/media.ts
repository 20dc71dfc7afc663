import { Type } from '@sinclair/typebox';

/** The `media` key of the configuration (src/config.ts): where uploaded images go, and their limits. */
export const MediaConfig = Type.Object(
  {
    /** The directory of the files; default `DATA_DIR/media` (in memory with `DATA_DIR=memory://`). */
    dir: Type.Optional(Type.String({ minLength: 1 })),
    /** Largest upload accepted, in bytes. */
    maxBytes: Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024, default: 10 * 1024 * 1024 }),
    /** Largest image accepted, in pixels (width × height), checked before it is decoded. */
    maxPixels: Type.Integer({ minimum: 1, maximum: 268_402_689, default: 40_000_000 }),
    /**
     * Images decoded or encoded at once in a process (each takes tens of MB while it runs; the
     * others wait their turn). Default: half the cores, at least one.
     */
    imageWorkers: Type.Optional(Type.Integer({ minimum: 1, maximum: 32 })),
    /** An S3-compatible bucket instead of the directory: the storage several instances share. */
    s3: Type.Optional(
      Type.Object(
        {
          endpoint: Type.Optional(Type.String({ pattern: '^https?://' })),
          bucket: Type.String({ minLength: 3, maxLength: 63 }),
          region: Type.String({ default: 'us-east-1' }),
          accessKeyId: Type.Optional(Type.String({ minLength: 1 })),
          secretAccessKey: Type.Optional(Type.String({ minLength: 1 })),
          /** Path-style addresses (`endpoint/bucket/key`), as most self-hosted servers want. */
          forcePathStyle: Type.Boolean({ default: false }),
          /** Prefix of every key, so one bucket can hold several shops. */
          prefix: Type.String({ default: '' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, default: {} },
);
