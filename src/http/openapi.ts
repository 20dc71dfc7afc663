import { Type } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import { ERROR_STATUS, type ErrorBodyType } from './errors.ts';

/** Marks an onSend hook that answers ETags and 304s (src/resources/caching.ts), for the document. */
export const SENDS_ETAG = Symbol('sends ETag');

/** The operation extension documentConditionalReads sets; finishDocument turns it into ETag and 304. */
const CONDITIONAL = 'x-conditional-read';

/** Errors any operation can answer: bad input, a bad token, throttling, faults. */
const GENERIC_ERROR_STATUSES = [400, 401, 413, 415, 429, 500, 503];

function codesFor(status: number): string {
  return Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => code)
    .join(', ');
}

export function errorResponse(status: number) {
  return Type.Unsafe<ErrorBodyType>({
    $ref: 'ErrorBody#',
    description: `Error envelope; error.code is one of: ${codesFor(status)}`,
  });
}

/**
 * Marks, for the document, a GET route whose caching hook answers an ETag and 304 to a matching
 * If-None-Match (public catalog and content reads, the storefront settings).
 */
export function documentConditionalReads(route: RouteOptions): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide || ![route.method].flat().includes('GET')) return;
  const hooks = [route.onSend].flat() as ({ [SENDS_ETAG]?: boolean } | undefined)[];
  if (hooks.some((hook) => hook?.[SENDS_ETAG])) schema[CONDITIONAL] = true;
}

/** Adds the error envelope to every documented route for the generic statuses and any it lists. */
export function documentErrorResponses(route: RouteOptions): void {
  const schema = route.schema;
  if (!schema || schema.hide) return;
  const response = (schema.response ?? {}) as Record<string, unknown>;
  for (const status of GENERIC_ERROR_STATUSES) response[status] ??= errorResponse(status);
  schema.response = response;
}

// ---------------------------------------------------------------------------------------------
// The document as clients and generators see it. Everything below is derived from the routes
// when the document is built, so a route added by any module gets an operationId, a tag with a
// description and named schemas without declaring them (docs/api.md).

type Json = Record<string, unknown>;
type OperationObject = Json & {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  responses?: Record<string, Json>;
};

/** Operations whose shape the generic naming rule below cannot read well. */
const OPERATION_IDS: Record<string, string> = {
  'GET /health/live': 'checkLiveness',
  'GET /health/ready': 'checkReadiness',
  'GET /rest/product/product/facets': 'getProductFacets',
  'POST /rest/auth/customer/login': 'login',
  'POST /rest/auth/customer/refresh': 'refreshToken',
  'POST /rest/auth/customer/logout': 'logout',
  'POST /rest/auth/customer/register': 'register',
  'POST /rest/auth/customer/password': 'changePassword',
  'GET /rest/auth/customer/me': 'getCurrentCustomer',
  'POST /rest/auth/admin/login': 'adminLogin',
  'POST /rest/auth/admin/refresh': 'adminRefreshToken',
  'POST /rest/auth/admin/logout': 'adminLogout',
  'GET /rest/auth/admin/me': 'getCurrentAdmin',
  'GET /rest/features': 'getFeatures',
  'GET /rest/v1/storefront-config': 'getStorefrontConfig',
  'GET /rest/storefront-config': 'getStorefrontConfigUnversioned',
  'PUT /rest/system/setting/{key}': 'setSetting',
  'DELETE /rest/system/setting/{key}': 'resetSetting',
  'POST /rest/system/admin-user/{id}/password-reset': 'sendAdminUserPasswordReset',
  'GET /rest/cart': 'getCart',
  'POST /rest/cart/items': 'addCartItem',
  'PATCH /rest/cart/items/{id}': 'setCartItemQuantity',
  'DELETE /rest/cart/items/{id}': 'removeCartItem',
  'POST /rest/cart/coupon': 'applyCartCoupon',
  'DELETE /rest/cart/coupon': 'removeCartCoupon',
  'POST /rest/v1/checkout/totals': 'getTotals',
  'POST /rest/checkout/place-order': 'placeOrder',
  'GET /rest/checkout/payment-methods': 'listPaymentMethods',
  'POST /rest/payments/test/confirm': 'confirmTestPayment',
  'POST /rest/payments/test/authenticate': 'authenticateTestPayment',
  'POST /rest/payments/{provider}/webhook': 'receivePaymentEvent',
  'POST /rest/customer/wishlist': 'addWishlistEntry',
  'DELETE /rest/customer/wishlist/product/{productId}': 'removeWishlistProduct',
  'DELETE /rest/customer/wishlist/{id}': 'removeWishlistProductById',
  'PATCH /rest/auth/customer/me': 'updateCurrentCustomer',
  'POST /rest/auth/customer/password-reset': 'requestPasswordReset',
  'POST /rest/auth/customer/password-reset/confirm': 'confirmPasswordReset',
  'POST /rest/auth/customer/verify-email': 'verifyEmail',
  'POST /rest/auth/admin/password': 'adminChangePassword',
  'POST /rest/system/webhook/{id}/rotate-secret': 'rotateWebhookSecret',
  'POST /rest/system/webhook/{id}/deliveries/{deliveryId}/retry': 'retryWebhookDelivery',
  'POST /rest/loyalty/adjustment': 'adjustLoyaltyPoints',
  'GET /rest/loyalty/ledger': 'listLoyaltyLedger',
  'POST /rest/order/order/{id}/shipment': 'shipOrder',
  'POST /rest/order/order/{id}/payment': 'markOrderPaid',
  'POST /rest/order/order/{id}/return': 'returnOrderLines',
  'GET /rest/order/lookup': 'lookupOrder',
  'GET /rest/system/audit': 'listAuditEntries',
  'GET /rest/report/sales': 'getSalesReport',
  'GET /rest/report/top-products': 'getTopProductsReport',
  'GET /rest/report/coupons': 'getCouponsReport',
  'GET /rest/report/loyalty': 'getLoyaltyReport',
  'GET /rest/report/orders': 'exportOrders',
};

/** Entities whose path segment does not read as the thing itself. */
const ENTITY_NAMES: Record<string, string> = { wishlist: 'WishlistEntry' };

function pascal(segment: string): string {
  return segment
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

function camel(segment: string): string {
  const name = pascal(segment);
  return name[0].toLowerCase() + name.slice(1);
}

function plural(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/**
 * A readable operationId from the method and path: the resource shape
 * (`/rest/{domain}/{entity}`, `/item`, `/{id}`, `/{id}/{action}`) gives listProducts,
 * findProduct, getProduct, createProduct, updateProduct, deleteProduct, transitionOrder; other
 * shapes give the method's verb and the path's words.
 */
export function operationIdFor(method: string, path: string): string {
  const known = OPERATION_IDS[`${method} ${path}`];
  if (known) return known;
  const words = path.split('/').filter((s) => s && s !== 'rest' && !/^v\d+$/.test(s));
  const isParam = (s: string) => s.startsWith('{');
  const last = words.at(-1) ?? 'root';
  const statics = words.filter((s) => !isParam(s));
  const entityOf = (segment: string) => ENTITY_NAMES[segment] ?? pascal(segment);
  if (words.length === 2 && !isParam(last)) {
    const entity = entityOf(last);
    if (method === 'GET') return `list${plural(entity)}`;
    if (method === 'POST') return `create${entity}`;
  }
  if (words.length === 3 && last === 'item' && method === 'GET') return `find${entityOf(words[1])}`;
  if (words.length === 3 && isParam(last)) {
    const verb = { GET: 'get', PUT: 'set', PATCH: 'update', DELETE: 'delete' }[method];
    if (verb) return `${verb}${entityOf(words[1])}`;
  }
  if (words.length === 4 && isParam(words[2]) && method === 'GET') {
    return `list${entityOf(words[1])}${pascal(last)}`;
  }
  if (words[0] === 'auth' && (words[1] === 'customer' || words[1] === 'admin')) {
    // The customer's calls are the plain ones (login, register); the back office's say admin.
    const action = camel(
      words
        .slice(2)
        .filter((w) => !isParam(w))
        .join('-'),
    );
    const verb =
      method === 'POST' ? '' : ({ GET: 'get', PUT: 'set', PATCH: 'update', DELETE: 'delete' }[method] ?? '');
    const name = verb ? `${verb}${pascal(action)}` : action;
    return words[1] === 'admin' ? `admin${pascal(name)}` : name;
  }
  if (words.length === 4 && isParam(words[2]) && method === 'POST') {
    return `${last.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}${entityOf(words[1])}`;
  }
  const verb = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'update', DELETE: 'delete' }[method] ?? 'call';
  const params = words.filter(isParam).map((p) => `By${pascal(p)}`);
  return `${verb}${statics.map(pascal).join('')}${params.join('')}`;
}

/** What each tag holds, and the group it is listed under on the docs page. */
const TAGS: Record<string, { group: 'Storefront' | 'Back office' | 'Operations'; description: string }> = {
  auth: {
    group: 'Storefront',
    description: 'Log in, refresh and log out (customers and admins); customer registration and password.',
  },
  storefront: {
    group: 'Storefront',
    description: 'Capability flags and storefront settings, readable by anyone.',
  },
  product: {
    group: 'Storefront',
    description: 'The catalog: products and categories. Anyone reads active ones; the back office writes.',
  },
  cms: { group: 'Storefront', description: 'Content: video reels, slider groups and sliders.' },
  cart: {
    group: 'Storefront',
    description: 'The cart of a guest (X-Cart-Token) or of the logged-in customer.',
  },
  checkout: {
    group: 'Storefront',
    description: 'Shipping methods, coupons, gift rules, totals and placing an order.',
  },
  customer: {
    group: 'Storefront',
    description: 'Customers, their addresses and wishlists: a customer their own, the back office all.',
  },
  order: {
    group: 'Storefront',
    description:
      'Orders: a customer reads their own; the back office reads all and moves them between statuses.',
  },
  loyalty: { group: 'Back office', description: 'Loyalty points: the ledger and manual adjustments.' },
  report: {
    group: 'Back office',
    description: 'Sales, products, coupons and loyalty figures, and the order export; JSON or CSV.',
  },
  system: {
    group: 'Back office',
    description: 'Back-office users, the settings registry and the audit log of back-office writes.',
  },
  webhooks: { group: 'Back office', description: 'Webhook subscribers and the deliveries made to them.' },
  payments: {
    group: 'Storefront',
    description: "Card payments: the test provider's customer steps and the providers' signed events.",
  },
  operations: { group: 'Operations', description: 'Liveness and readiness probes for the platform.' },
};

/** Tag names in the order the docs page lists them. */
function tagsOf(document: Json): string[] {
  const used = new Set<string>();
  for (const operations of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const op of Object.values(operations) as OperationObject[])
      for (const tag of op.tags ?? []) used.add(tag);
  }
  const known = Object.keys(TAGS).filter((t) => used.has(t));
  return [...known, ...[...used].filter((t) => !(t in TAGS)).sort()];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Response headers the service sends, declared once in components.headers. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'The request id, also in the logs; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'X-Cart-Token': {
    description:
      "A guest cart's token: send it back in X-Cart-Token on the next cart and checkout calls. Not sent to customers.",
    schema: { type: 'string' },
  },
  ETag: {
    description: 'Weak validator of a public catalog or content answer; send it in If-None-Match to get 304.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      'public, max-age=… for guest catalog and content reads; private, no-store for anything personal.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'string' } },
  'X-RateLimit-Limit': {
    description: 'Calls allowed in the window (throttled operations).',
    schema: { type: 'string' },
  },
  'X-RateLimit-Remaining': {
    description: 'Calls left in the window (throttled operations).',
    schema: { type: 'string' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window resets (throttled operations).',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '"true" when the answer is the stored one of an earlier call with the same Idempotency-Key.',
    schema: { type: 'string' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

function hasHeaderParameter(op: OperationObject, name: string): boolean {
  const parameters = (op.parameters ?? []) as { in?: string; name?: string }[];
  return parameters.some((p) => p.in === 'header' && p.name?.toLowerCase() === name.toLowerCase());
}

/**
 * Declares the response headers each answer can carry, the 304 of public reads, and the cart
 * token login reads to merge a guest's cart (the route reads it from the raw headers).
 */
function documentHeaders(path: string, op: OperationObject): void {
  const isPublicRead = op[CONDITIONAL] === true;
  delete op[CONDITIONAL];
  if (op.operationId === 'login' && !hasHeaderParameter(op, 'x-cart-token')) {
    const parameters = (op.parameters ?? []) as Json[];
    parameters.push({
      in: 'header',
      name: 'x-cart-token',
      required: false,
      description: "A guest cart's token: its lines are merged into the customer's cart at login.",
      schema: { type: 'string', maxLength: 200 },
    });
    op.parameters = parameters;
  }
  // Only the cart's answers send a guest's token back (checkout reads it, login merges it).
  const cartToken = path.startsWith('/rest/cart');
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const headers: Record<string, unknown> = { 'X-Request-Id': ref('X-Request-Id') };
    if (status.startsWith('2')) {
      headers['Cache-Control'] = ref('Cache-Control');
      if (isPublicRead) headers.ETag = ref('ETag');
      if (cartToken) headers['X-Cart-Token'] = ref('X-Cart-Token');
      if (op.operationId === 'placeOrder') headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
    }
    if (status === '429') {
      for (const name of ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
        headers[name] = ref(name);
      }
    }
    response.headers = { ...(response.headers as Json | undefined), ...headers };
  }
  if (isPublicRead && op.responses && !op.responses['304']) {
    op.responses['304'] = {
      description:
        'Not modified: the If-None-Match sent matches the current ETag (guest reads only); no body.',
      headers: { ETag: ref('ETag'), 'X-Request-Id': ref('X-Request-Id') },
    };
  }
}

/** Bodies that are not a resource's entity but that clients import by name, by operation. */
const RESPONSE_NAMES: Record<string, string> = {
  login: 'TokenPair',
  adminLogin: 'TokenPair',
  register: 'TokenPair',
  refreshToken: 'AccessToken',
  adminRefreshToken: 'AccessToken',
  getTotals: 'Totals',
};

/** A PascalCase schema name for a resource's title (`product/slider-group` → `SliderGroup`). */
function schemaNameOf(title: string): string {
  const entity = title.split('/').at(-1) ?? title;
  return ENTITY_NAMES[entity] ?? pascal(entity);
}

/**
 * Moves each resource's documented entity schema (the one answers hold in `data`) into
 * components.schemas under the name clients import (Product, Category, …) and refers to it.
 * Embedded relations stay inline: they are the nested views of `with`.
 */
function nameEntitySchemas(document: Json): void {
  const components = document.components as Json;
  components.schemas ??= {};
  const schemas = components.schemas as Record<string, Json>;
  const named = new Map<string, string>();
  const hoist = (schema: Json | undefined): Json | undefined => {
    if (!schema || typeof schema.title !== 'string' || !schema.title.includes('/')) return schema;
    const text = JSON.stringify(schema);
    let name = named.get(text);
    if (!name) {
      const base = schemaNameOf(schema.title);
      name = base;
      for (let n = 2; schemas[name]; n++) name = `${base}${n}`;
      schemas[name] = { ...schema, title: name };
      named.set(text, name);
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  const nameBody = (name: string, schema: Json): Json => {
    const text = JSON.stringify(schema);
    const existing = schemas[name];
    // The same name for a different shape would mislead clients: such a body stays inline.
    if (existing && JSON.stringify(existing) !== text) return schema;
    schemas[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  };
  for (const operations of Object.values(
    (document.paths ?? {}) as Record<string, Record<string, OperationObject>>,
  )) {
    for (const op of Object.values(operations)) {
      const bodyName = RESPONSE_NAMES[op.operationId ?? ''];
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const content = response.content as Record<string, { schema?: Json }> | undefined;
        for (const media of Object.values(content ?? {})) {
          if (bodyName && status.startsWith('2') && media.schema) {
            media.schema = nameBody(bodyName, media.schema);
            continue;
          }
          const data = (media.schema?.properties as Record<string, Json> | undefined)?.data;
          if (!data) continue;
          const props = media.schema!.properties as Record<string, Json>;
          if (data.type === 'array') data.items = hoist(data.items as Json);
          else props.data = hoist(data) ?? data;
        }
      }
    }
  }
}

/**
 * Finishes the generated document (swagger's transformObject): operationIds, descriptions,
 * tags with descriptions and groups, servers, and each resource's entity schema named in
 * components.schemas.
 */
export function finishDocument(document: Json): Json {
  const seen = new Set<string>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, OperationObject>>;
  for (const [path, operations] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = operations[method];
      if (!op) continue;
      let id = op.operationId ?? operationIdFor(method.toUpperCase(), path);
      // Two routes that read alike (a new module's) still get distinct ids.
      for (let n = 2; seen.has(id); n++) id = `${id.replace(/\d+$/, '')}${n}`;
      seen.add(id);
      op.operationId = id;
      op.tags ??= ['operations'];
      op.description ??= op.summary;
      // Routes outside /rest (health probes) take no token.
      op.security ??= [];
      documentHeaders(path, op);
    }
  }
  document.components ??= {};
  const components = document.components as Json;
  components.headers = { ...(components.headers as Json | undefined), ...HEADERS };
  nameEntitySchemas(document);
  const tags = tagsOf(document);
  document.tags = tags.map((name) => ({
    name,
    description: TAGS[name]?.description ?? `Operations on ${name}.`,
  }));
  const groups = ['Storefront', 'Back office', 'Operations'].map((name) => ({
    name,
    tags: tags.filter((t) => (TAGS[t]?.group ?? 'Back office') === name),
  }));
  document['x-tagGroups'] = groups.filter((g) => g.tags.length > 0);
  return document;
}
