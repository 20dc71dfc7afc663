import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiTag } from '../../http/openapi.ts';

// What catalog import and export declare to the generic layers: their tag and their one code of
// their own (the others are the generic ones: 400, 404, 413, 415).

export const catalogIoTag: ApiTag = {
  name: 'catalog-io',
  group: 'Back office',
  description:
    "Catalog import and export as CSV in WooCommerce's product columns (docs/import-export.md).",
};

export const catalogIoErrors = {
  IMPORT_NOT_OVER: { status: 409, meaning: 'The import is still queued or running: its rows in error are not known yet.' },
} as const satisfies ErrorCatalog;

type CatalogIoErrors = typeof catalogIoErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends CatalogIoErrors {}
}
