// A thin layer over openapi-fetch for the Shop REST API. The types come from the service's OpenAPI
// document (schema.ts, generated); this file only keeps the session: the guest cart token, the
// access and refresh tokens (refreshed once on 401 TOKEN_EXPIRED), the device token (sent with
// every check of a password, so strangers' failed logins do not refuse it), an Idempotency-Key on every
// place-order, and the error envelope as a typed error. It uses fetch, Request, Response and
// crypto.randomUUID only, so it runs on Node 20+ and in browsers alike.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
export type Schemas = components['schemas'];
export type ErrorBody = Schemas['ErrorBody'];
export type ErrorCode = ErrorBody['error']['code'];
export type TokenPair = Schemas['TokenPair'];

/** An answer of the error envelope, thrown by `unwrap` and the helpers. */
export class ShopApiError extends Error {
  override readonly name = 'ShopApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: unknown,
    /** The service's X-Request-Id: quote it when reporting a problem. */
    readonly requestId: string | null,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** Which login the tokens belong to: the storefront's customers or the back office's admins. */
export type Context = 'customer' | 'admin';

export interface Session {
  context: Context;
  accessToken?: string;
  refreshToken?: string;
  /** A guest cart's token (X-Cart-Token), until the guest logs in and the cart is merged. */
  cartToken?: string;
  /**
   * The device token of the last successful login (X-Device-Token). It outlives logout: keep it
   * in storage with the session, so the next login on this device is known.
   */
  deviceToken?: string;
}

export interface ShopClientOptions {
  /** Where the service is, e.g. https://shop.example.com (paths start with /rest). */
  baseUrl: string;
  context?: Context;
  /** Restores a session (e.g. from storage); `onSessionChange` reports every change. */
  session?: Partial<Session>;
  onSessionChange?: (session: Session) => void;
  fetch?: typeof globalThis.fetch;
}

/** Calls that set up a session and must not carry (or refresh) an access token. */
const CREDENTIAL_CALLS = /\/rest\/auth\/(customer|admin)\/(login|register|refresh)$/;
const PLACE_ORDER = /\/rest\/checkout\/place-order$/;
/** Calls that check a password: the device token goes with them. */
const PASSWORD_CALLS = /\/rest\/auth\/(customer|admin)\/(login|password|me)$/;

/**
 * One operation of a path built at run time (a back office reading its resource table), which the
 * generated types cannot name: any query, any JSON body, the envelope back.
 */
interface RuntimeOperation {
  parameters: { query?: Record<string, string>; header?: Record<string, string> };
  requestBody?: { content: { 'application/json': unknown } };
  responses: {
    200: { content: { 'application/json': RuntimeEnvelope } };
    default: { content: { 'application/json': ErrorBody } };
  };
}

/** The success envelope as far as every answer shares it. */
export interface RuntimeEnvelope {
  data?: unknown;
  pagination?: { total?: number };
}

/** Every `/rest` path, each method answered as a `RuntimeOperation`. */
export type RuntimePaths = Record<
  `/rest/${string}`,
  {
    get: RuntimeOperation;
    post: RuntimeOperation;
    put: RuntimeOperation;
    patch: RuntimeOperation;
    delete: RuntimeOperation;
  }
>;

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The success data of an openapi-fetch result, or the ShopApiError of its error envelope. */
export function unwrap<T>(result: FetchResult<T>): T {
  if (result.error === undefined && result.response.ok) return result.data as T;
  const body = result.error as Partial<ErrorBody> | undefined;
  const error = body?.error;
  throw new ShopApiError(
    result.response.status,
    (error?.code ?? 'INTERNAL') as ErrorCode,
    error?.message ?? result.response.statusText,
    error?.details,
    result.response.headers.get('x-request-id'),
  );
}

export interface ShopClient {
  /** The typed openapi-fetch client: `api.GET('/rest/product/product', {params: {query}})`. */
  api: Client<paths>;
  /**
   * The same session for a path built at run time, where the types cannot name it: the answer is
   * the envelope, its data unchecked. Prefer `api` wherever the path is written out.
   */
  runtimeApi: Client<RuntimePaths>;
  session: Readonly<Session>;
  /** Logs in (a customer's login merges the guest cart into theirs) and keeps the tokens. */
  login(username: string, password: string): Promise<TokenPair>;
  /** Registers a customer, who is then logged in; the guest cart is kept for the next login. */
  register(body: operations['register']['requestBody']['content']['application/json']): Promise<TokenPair>;
  logout(): Promise<void>;
  /**
   * Places the cart as an order. The Idempotency-Key is made once per call unless given: repeat a
   * call that failed on the network with the same key to get the first answer, not a second order.
   */
  placeOrder(
    body: operations['placeOrder']['requestBody']['content']['application/json'],
    idempotencyKey?: string,
  ): Promise<Schemas['Order']>;
}

export function createShopClient(options: ShopClientOptions): ShopClient {
  const session: Session = { context: options.context ?? 'customer', ...options.session };
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const changed = () => options.onSessionChange?.({ ...session });
  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch: fetchImpl });
  const authPath = `/rest/auth/${session.context}`;

  // Concurrent calls that meet an expired token share one refresh.
  let refreshing: Promise<boolean> | undefined;
  const refresh = (): Promise<boolean> => {
    refreshing ??= (async () => {
      const refreshToken = session.refreshToken;
      if (!refreshToken) return false;
      const response = await fetchImpl(`${options.baseUrl}${authPath}/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
      if (!response.ok) {
        session.accessToken = undefined;
        session.refreshToken = undefined;
        changed();
        return false;
      }
      session.accessToken = ((await response.json()) as { access_token: string }).access_token;
      changed();
      return true;
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  // A copy of each request's body, to send it again after a refresh (a body is read only once).
  const retryCopies = new WeakMap<Request, Request>();

  const sessionMiddleware: Middleware = {
    onRequest({ request }) {
      const credentialCall = CREDENTIAL_CALLS.test(new URL(request.url).pathname);
      if (session.accessToken && !credentialCall && !request.headers.has('authorization')) {
        request.headers.set('authorization', `Bearer ${session.accessToken}`);
      }
      // A guest's cart goes with every call of the guest, and with login/register to be merged.
      if (
        session.cartToken &&
        (!session.accessToken || credentialCall) &&
        !request.headers.has('x-cart-token')
      ) {
        request.headers.set('x-cart-token', session.cartToken);
      }
      if (session.deviceToken && PASSWORD_CALLS.test(new URL(request.url).pathname)) {
        if (!request.headers.has('x-device-token'))
          request.headers.set('x-device-token', session.deviceToken);
      }
      if (PLACE_ORDER.test(new URL(request.url).pathname) && !request.headers.has('idempotency-key')) {
        request.headers.set('idempotency-key', globalThis.crypto.randomUUID());
      }
      if (!credentialCall && session.refreshToken) retryCopies.set(request, request.clone());
      return request;
    },
    async onResponse({ request, response }) {
      const cartToken = response.headers.get('x-cart-token');
      if (cartToken && cartToken !== session.cartToken && !session.accessToken) {
        session.cartToken = cartToken;
        changed();
      }
      const copy = retryCopies.get(request);
      retryCopies.delete(request);
      if (response.status !== 401 || !copy) return response;
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as Partial<ErrorBody> | undefined;
      if (body?.error?.code !== 'TOKEN_EXPIRED' || !(await refresh())) return response;
      const retry = new Request(copy, { headers: new Headers(copy.headers) });
      retry.headers.set('authorization', `Bearer ${session.accessToken}`);
      return fetchImpl(retry);
    },
  };
  api.use(sessionMiddleware);
  const runtimeApi = createClient<RuntimePaths>({ baseUrl: options.baseUrl, fetch: fetchImpl });
  runtimeApi.use(sessionMiddleware);

  const keepTokens = (pair: TokenPair, merged: boolean): TokenPair => {
    session.accessToken = pair.access_token;
    session.refreshToken = pair.refresh_token;
    session.deviceToken = pair.device_token;
    // Login merges the guest cart into the customer's; registration does not, so the guest
    // cart's token is kept for the next login.
    if (merged) session.cartToken = undefined;
    changed();
    return pair;
  };

  return {
    api,
    runtimeApi,
    session,
    async login(username, password) {
      const path = session.context === 'admin' ? '/rest/auth/admin/login' : '/rest/auth/customer/login';
      return keepTokens(unwrap(await api.POST(path, { body: { username, password } })), true);
    },
    async register(body) {
      return keepTokens(unwrap(await api.POST('/rest/auth/customer/register', { body })), false);
    },
    async logout() {
      const refreshToken = session.refreshToken;
      if (refreshToken) {
        const path = session.context === 'admin' ? '/rest/auth/admin/logout' : '/rest/auth/customer/logout';
        unwrap(await api.POST(path, { body: { refresh_token: refreshToken } }));
      }
      session.accessToken = undefined;
      session.refreshToken = undefined;
      changed();
    },
    async placeOrder(body, idempotencyKey = globalThis.crypto.randomUUID()) {
      const result = await api.POST('/rest/checkout/place-order', {
        body,
        params: { header: { 'idempotency-key': idempotencyKey } },
      });
      return unwrap(result).data;
    },
  };
}
