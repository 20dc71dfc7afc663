import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { cacheDeclarationOf, cachingHook, requestContext, querySchema } from '../../resources/index.ts';
import { productFacets } from './facets.ts';
import { productResource } from './product.resource.ts';

const ValueCount = Type.Object(
  { value: Type.String(), count: Type.Integer() },
  { additionalProperties: false },
);

export const ProductFacets = Type.Object(
  {
    brand: Type.Array(ValueCount, { description: 'Brands with their product counts, most first' }),
    category: Type.Array(
      Type.Object(
        { id: Type.Integer(), name: Type.String(), count: Type.Integer() },
        { additionalProperties: false },
      ),
      { description: 'Categories with the counts of the products directly in them, most first' },
    ),
    price: Type.Object(
      { min: Type.Union([Type.Number(), Type.Null()]), max: Type.Union([Type.Number(), Type.Null()]) },
      { additionalProperties: false, description: 'The lowest and highest gross price; null when none' },
    ),
    inStock: Type.Object(
      { count: Type.Integer() },
      { additionalProperties: false, description: 'How many of the products are in stock' },
    ),
    options: Type.Record(Type.String(), Type.Array(ValueCount), {
      description: 'Per option name, the values of active variants with their product counts',
    }),
  },
  { additionalProperties: false, title: 'ProductFacets' },
);

/** `GET /rest/product/product/facets`: counts for building the storefront's filters. */
export function registerProductFacets(app: FastifyInstance): void {
  const { q, ...filters } = querySchema(productResource, false).properties;
  app.get<{ Querystring: Record<string, unknown> }>(
    `${productResource.path}/facets`,
    {
      schema: {
        tags: [productResource.def.domain],
        operationId: 'getProductFacets',
        summary: 'Count products per brand, category, price and stock',
        description:
          "Facet counts of the product list the same filters and q select (option.<Name>=a,b included), for the products the caller may see. A facet's counts apply every filter except its own: choosing a brand does not hide the other brands.",
        querystring: Type.Object({ q, ...filters }),
        response: { 200: Envelope(ProductFacets) },
      },
      // Counts are the same for every customer: kept for customers too.
      config: { access: access.public(), cache: cacheDeclarationOf(productResource, { customers: true }) },
      onSend: cachingHook('public', true),
    },
    async (request) => ok(await productFacets(requestContext(request), request.query)),
  );
}
