import type { ApiTag } from '../../http/openapi.ts';

// What catalog import and export declare to the generic layers: their tag (their errors are the
// generic ones: 400, 404, 413, 415).

export const catalogIoTag: ApiTag = {
  name: 'catalog-io',
  group: 'Back office',
  description:
    "Catalog import and export as CSV in WooCommerce's product columns (docs/import-export.md).",
};
