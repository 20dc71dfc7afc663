import { Type } from '@sinclair/typebox';

/** The `import` key of the configuration (src/config.ts): the catalog's CSV import (docs/import-export.md). */
export const ImportConfig = Type.Object(
  {
    /** Largest CSV file accepted, in bytes; a larger one is refused with 413. */
    maxBytes: Type.Integer({ minimum: 1024, maximum: 500 * 1024 * 1024, default: 50 * 1024 * 1024 }),
    /** The fetch of the `Images` addresses into the media library, when an import asks for it. */
    images: Type.Object(
      {
        /** Largest image taken from an address, in bytes; the download stops past it. */
        maxBytes: Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024, default: 10 * 1024 * 1024 }),
        /** The whole fetch of one address (connection, answer, body) is bounded by this. */
        timeoutMs: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),
        /**
         * Addresses on loopback, private, link-local or the service's own addresses. Off in every
         * environment: the file's addresses were written by someone else.
         */
        allowPrivateTargets: Type.Boolean({ default: false }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);
