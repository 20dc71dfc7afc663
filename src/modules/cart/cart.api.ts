import type { ApiHeader, ApiHeaderParameter, ApiTag } from '../../http/openapi.ts';

// What the cart declares to the generic layers: its tag and the guest cart's token header.

export const cartTag: ApiTag = {
  name: 'cart',
  group: 'Storefront',
  description: 'The cart of a guest (X-Cart-Token) or of the logged-in customer.',
};

/** Only the cart's answers send a guest's token back (checkout reads it, login merges it). */
export const cartTokenHeader: Record<string, ApiHeader> = {
  'X-Cart-Token': {
    description:
      "A guest cart's token: send it back in X-Cart-Token on the next cart and checkout calls. Not sent to customers.",
    schema: { type: 'string' },
  },
};

/** Login reads the guest's token from the raw headers to merge that cart. */
export const cartTokenAtLogin: ApiHeaderParameter = {
  in: 'header',
  name: 'x-cart-token',
  required: false,
  description: "A guest cart's token: its lines are merged into the customer's cart at login.",
  schema: { type: 'string', maxLength: 200 },
};
