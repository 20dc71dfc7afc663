import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiTag } from '../../http/openapi.ts';

// What the catalog declares to the generic layers: its tag and its error codes.

export const productTag: ApiTag = {
  name: 'product',
  group: 'Storefront',
  description: 'The catalog: products and categories. Anyone reads active ones; the back office writes.',
};

export const catalogErrors = {
  OUT_OF_STOCK: {
    status: 409,
    meaning: 'Not enough units on hand (details name the variant and the units).',
  },
  PRODUCT_UNAVAILABLE: { status: 422, meaning: 'A product is inactive or gone.' },
  VARIANT_REQUIRED: { status: 422, meaning: 'The product has several variants: name one.' },
} as const satisfies ErrorCatalog;

type CatalogErrors = typeof catalogErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends CatalogErrors {}
}
