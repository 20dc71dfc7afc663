// react-admin's data provider for the service's `/rest/{domain}/{entity}` convention, over the
// typed client (packages/client), whose session middleware adds the token and refreshes it once on
// 401 TOKEN_EXPIRED. Plain TypeScript over fetch: it runs in Node as well (test/admin).
//
//   getList      GET  /rest/{path}?page&limit&sort=-field&q&field=v&field[gte]=v
//   getOne       GET  /rest/{path}/{id}
//   getMany      GET  /rest/{path}?id=1,2,3 (any-of), or one getOne per id where there is no id filter
//   create       POST /rest/{path}
//   update       PATCH /rest/{path}/{id} with the changed fields only (read-only fields → 400)
//   delete       DELETE /rest/{path}/{id}
// Settings are keyed by `key` and written with PUT /rest/system/setting/{key} {value}.
import type { ShopClient } from '../../packages/client/src/index.ts';
import { RESOURCES, type ResourceAccess } from './resources.ts';

type AnyRecord = Record<string, unknown> & { id?: unknown };

/** An answer of the error envelope; react-admin reads `status` and shows `message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ListParams {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' | string };
  filter?: Record<string, unknown>;
  /** Relations to embed (`with=`). */
  meta?: { with?: string[] };
}

/** Range filters arrive from forms as `price_gte`; the API names them `price[gte]`. */
const RANGE_SUFFIX = /^(.+)_(gte|lte|gt|lt)$/;

export function listQuery(access: ResourceAccess, params: ListParams): Record<string, string> {
  const query: Record<string, string> = {};
  if (params.pagination) {
    query.page = String(params.pagination.page);
    query.limit = String(params.pagination.perPage);
  }
  const sortField = params.sort?.field;
  if (access.sortable && sortField) {
    query.sort = params.sort?.order === 'DESC' ? `-${sortField}` : sortField;
  }
  for (const [name, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (text === '') continue;
    const range = RANGE_SUFFIX.exec(name);
    query[range ? `${range[1]}[${range[2]}]` : name] = text;
  }
  if (params.meta?.with?.length) query.with = params.meta.with.join(',');
  return query;
}

function accessOf(resource: string): ResourceAccess {
  const access = RESOURCES[resource];
  if (!access) throw new Error(`Unknown resource ${resource}`);
  return access;
}

/** Gives every record an `id` (settings are keyed by `key`). */
function withId(access: ResourceAccess, record: AnyRecord): AnyRecord {
  return access.idField ? { ...record, id: record[access.idField] } : record;
}

/** The fields of `data` that differ from `previous` (what PATCH should carry). */
export function changedFields(data: AnyRecord, previous: AnyRecord | undefined): AnyRecord {
  const changes: AnyRecord = {};
  for (const [name, value] of Object.entries(data)) {
    if (name === 'id') continue;
    if (previous && JSON.stringify(previous[name]) === JSON.stringify(value)) continue;
    changes[name] = value;
  }
  return changes;
}

interface Envelope {
  data?: unknown;
  pagination?: { total?: number };
}

const orderPath = (id: unknown) => `order/order/${encodeURIComponent(String(id))}`;

export function createDataProvider(client: ShopClient) {
  // Paths are built at run time from the resource table, so the calls go through the client's
  // untyped face; the session middleware (token, refresh) is the same.
  const api = client.api as unknown as {
    [method in 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE']: (
      path: string,
      init?: {
        params?: { query?: Record<string, string> };
        body?: unknown;
        headers?: Record<string, string>;
        parseAs?: 'text';
      },
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  };

  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    init: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<Envelope> {
    const result = await api[method](`/rest/${path}`, {
      params: init.query ? { query: init.query } : undefined,
      body: init.body,
    });
    if (result.response.ok) return (result.data ?? {}) as Envelope;
    const error = (result.error as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(
      result.response.status,
      error?.code ?? 'INTERNAL',
      error?.message ?? result.response.statusText,
      result.error,
    );
  }

  const provider = {
    async getList(resource: string, params: ListParams, path = accessOf(resource).path) {
      const access = accessOf(resource);
      const page = await call('GET', path, { query: listQuery(access, params) });
      const rows = ((page.data as AnyRecord[]) ?? []).map((row) => withId(access, row));
      return { data: rows, total: page.pagination?.total ?? rows.length };
    },

    async getOne(resource: string, params: { id: unknown; meta?: { with?: string[] } }) {
      const access = accessOf(resource);
      const query = params.meta?.with?.length ? { with: params.meta.with.join(',') } : undefined;
      const answer = await call('GET', `${access.path}/${encodeURIComponent(String(params.id))}`, { query });
      return { data: withId(access, answer.data as AnyRecord) };
    },

    async getMany(resource: string, params: { ids: readonly unknown[]; meta?: { with?: string[] } }) {
      const access = accessOf(resource);
      if (params.ids.length === 0) return { data: [] };
      if (!access.idFilter) {
        const records = await Promise.all(
          params.ids.map((id) => provider.getOne(resource, { id, meta: params.meta })),
        );
        return { data: records.map((record) => record.data) };
      }
      const { data } = await provider.getList(resource, {
        pagination: { page: 1, perPage: params.ids.length },
        filter: { id: params.ids },
        meta: params.meta,
      });
      return { data };
    },

    async getManyReference(resource: string, params: ListParams & { target: string; id: unknown }) {
      const nested = accessOf(resource).nested;
      if (nested && nested.target === params.target) {
        return provider.getList(resource, params, nested.path(params.id));
      }
      return provider.getList(resource, {
        ...params,
        filter: { ...params.filter, [params.target]: params.id },
      });
    },

    async create(resource: string, params: { data: AnyRecord }) {
      const access = accessOf(resource);
      const answer = await call('POST', access.path, { body: changedFields(params.data, undefined) });
      return { data: withId(access, answer.data as AnyRecord) };
    },

    async update(resource: string, params: { id: unknown; data: AnyRecord; previousData?: AnyRecord }) {
      const access = accessOf(resource);
      const target = `${access.path}/${encodeURIComponent(String(params.id))}`;
      if (access.idField) {
        // A setting: its value is replaced whole.
        const answer = await call('PUT', target, { body: { value: params.data.value } });
        return { data: withId(access, { ...(params.previousData ?? {}), ...(answer.data as AnyRecord) }) };
      }
      const changes = changedFields(params.data, params.previousData);
      if (Object.keys(changes).length === 0) {
        return provider.getOne(resource, { id: params.id });
      }
      const answer = await call('PATCH', target, { body: changes });
      return { data: withId(access, answer.data as AnyRecord) };
    },

    async updateMany(resource: string, params: { ids: readonly unknown[]; data: AnyRecord }) {
      for (const id of params.ids) await provider.update(resource, { id, data: params.data });
      return { data: [...params.ids] };
    },

    async delete(resource: string, params: { id: unknown; previousData?: AnyRecord }) {
      const access = accessOf(resource);
      await call('DELETE', `${access.path}/${encodeURIComponent(String(params.id))}`);
      return { data: params.previousData ?? { id: params.id } };
    },

    async deleteMany(resource: string, params: { ids: readonly unknown[] }) {
      for (const id of params.ids) await provider.delete(resource, { id });
      return { data: [...params.ids] };
    },

    /** POST /rest/loyalty/adjustment: adds (or with a negative delta takes) a customer's points. */
    async adjustPoints(customerId: unknown, delta: number, reason: string) {
      const answer = await call('POST', 'loyalty/adjustment', { body: { customerId, delta, reason } });
      return { data: answer.data as AnyRecord };
    },

    /** POST /rest/system/webhook/{id}/rotate-secret: the webhook with its new signing secret (shown once). */
    async rotateWebhookSecret(id: unknown) {
      const answer = await call('POST', `system/webhook/${encodeURIComponent(String(id))}/rotate-secret`);
      return { data: answer.data as AnyRecord };
    },

    /** POST /rest/system/admin-user/{id}/password-reset: e-mails the user a code to choose a password. */
    async sendAdminPasswordReset(id: unknown) {
      await call('POST', `system/admin-user/${encodeURIComponent(String(id))}/password-reset`);
    },

    /** POST /rest/auth/admin/password-reset/confirm: the owner chooses the password with the code. */
    async chooseAdminPassword(token: string, password: string) {
      await call('POST', 'auth/admin/password-reset/confirm', { body: { token, password } });
    },

    /** POST /rest/system/webhook/{id}/deliveries/{deliveryId}/retry: sends a delivery again. */
    async retryWebhookDelivery(webhookId: unknown, deliveryId: unknown) {
      const path = `system/webhook/${encodeURIComponent(String(webhookId))}/deliveries/${encodeURIComponent(String(deliveryId))}/retry`;
      const answer = await call('POST', path);
      return { data: answer.data as AnyRecord };
    },

    /** POST /rest/order/order/{id}/transition {to, reason?}: the order as it is now. */
    async transitionOrder(id: unknown, to: string, reason?: string) {
      const answer = await call('POST', `${orderPath(id)}/transition`, {
        body: reason ? { to, reason } : { to },
      });
      return { data: answer.data as AnyRecord };
    },

    /** POST /rest/order/order/{id}/payment {reference?}: records the payment; the order as it is now. */
    async markOrderPaid(id: unknown, reference?: string) {
      const answer = await call('POST', `${orderPath(id)}/payment`, { body: reference ? { reference } : {} });
      return { data: answer.data as AnyRecord };
    },

    /** POST /rest/order/order/{id}/shipment {carrier, trackingNumber, trackingUrl?}: ships a confirmed order. */
    async shipOrder(
      id: unknown,
      shipment: { carrier: string; trackingNumber: string; trackingUrl?: string },
    ) {
      const body = shipment.trackingUrl ? shipment : { ...shipment, trackingUrl: undefined };
      const answer = await call('POST', `${orderPath(id)}/shipment`, { body });
      return { data: answer.data as AnyRecord };
    },

    /** POST /rest/order/order/{id}/return: takes units back and refunds them (restocks when asked). */
    async returnOrderLines(
      id: unknown,
      body: { lines: { orderLineId: number; qty: number }[]; restock: boolean; reason?: string },
    ) {
      const answer = await call('POST', `${orderPath(id)}/return`, { body });
      return { data: answer.data as AnyRecord };
    },

    /** GET /rest/report/{name}: a report's JSON (sales, top-products, coupons, loyalty). */
    async report(name: string, query: Record<string, string> = {}) {
      const answer = await call('GET', `report/${name}`, { query });
      return { data: answer.data as AnyRecord };
    },

    /** The same report as CSV (Accept: text/csv), for a download link. */
    async reportCsv(name: string, query: Record<string, string> = {}): Promise<string> {
      const result = await api.GET(`/rest/report/${name}`, {
        params: { query },
        headers: { accept: 'text/csv' },
        parseAs: 'text',
      });
      if (!result.response.ok) {
        throw new ApiError(result.response.status, 'INTERNAL', result.response.statusText, result.error);
      }
      return result.data as string;
    },
  };
  return provider;
}

export type ShopDataProvider = ReturnType<typeof createDataProvider>;
