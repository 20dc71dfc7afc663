// react-admin's data-provider calls over the resource table (resources.ts): the path of each call
// is built at run time from the table, so it goes through the client's runtime face (the same
// session: token, refresh); the records are plain objects, as react-admin takes them.
//
//   getList      GET  /rest/{path}?page&limit&sort=-field&q&field=v&field[gte]=v
//   getOne       GET  /rest/{path}/{id}
//   getMany      GET  /rest/{path}?id=1,2,3 (any-of), or one getOne per id where there is no id filter
//   create       POST /rest/{path}
//   update       PATCH /rest/{path}/{id} with the changed fields only (read-only fields → 400)
//   delete       DELETE /rest/{path}/{id}
// Settings are keyed by `key` and written with PUT /rest/system/setting/{key} {value}.
import type { RuntimeEnvelope, ShopClient } from '../../packages/client/src/index.ts';
import { bodyOf } from './api-answer.ts';
import { RESOURCES, type ResourceAccess } from './resources.ts';
import { translationsChange } from './translations-body.ts';

export type AnyRecord = Record<string, unknown> & { id?: unknown };

export interface ListParams {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: 'ASC' | 'DESC' | string };
  filter?: Record<string, unknown>;
  /** Relations to embed (`with=`). */
  meta?: { with?: string[] };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Call = (
  method: Method,
  path: string,
  init?: { query?: Record<string, string>; body?: unknown },
) => Promise<RuntimeEnvelope>;

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

/** The fields of `data` that differ from `previous` (what PATCH should carry). */
export function changedFields(data: AnyRecord, previous: AnyRecord | undefined): AnyRecord {
  const changes: AnyRecord = {};
  for (const [name, value] of Object.entries(data)) {
    if (name === 'id') continue;
    if (name === 'translations') {
      const translations = translationsChange(value, previous?.translations);
      if (translations) changes.translations = translations;
      continue;
    }
    if (previous && JSON.stringify(previous[name]) === JSON.stringify(value)) continue;
    changes[name] = value;
  }
  return changes;
}

function accessOf(resource: string): ResourceAccess {
  const access = RESOURCES[resource];
  if (!access) throw new Error(`Unknown resource ${resource}`);
  return access;
}

const isRecord = (value: unknown): value is AnyRecord => typeof value === 'object' && value !== null;

/** The answer's record, with an `id` (settings are keyed by `key`). */
function recordOf(access: ResourceAccess, data: unknown, previous: AnyRecord = {}): AnyRecord {
  const record = { ...previous, ...(isRecord(data) ? data : {}) };
  return access.idField ? { ...record, id: record[access.idField] } : record;
}

const itemPath = (access: ResourceAccess, id: unknown) => `${access.path}/${encodeURIComponent(String(id))}`;

/** One call of a path from the resource table: the envelope of the answer ({} when it has none). */
export function resourceCaller(client: ShopClient): Call {
  const api = client.runtimeApi;
  return async (method, path, init = {}) => {
    const options = { params: init.query ? { query: init.query } : undefined, body: init.body };
    const url = `/rest/${path}` as const;
    const send = {
      GET: () => api.GET(url, options),
      POST: () => api.POST(url, options),
      PATCH: () => api.PATCH(url, options),
      PUT: () => api.PUT(url, options),
      DELETE: () => api.DELETE(url, options),
    }[method];
    return bodyOf(await send()) ?? {};
  };
}

export async function getList(call: Call, resource: string, params: ListParams, path?: string) {
  const access = accessOf(resource);
  const page = await call('GET', path ?? access.path, { query: listQuery(access, params) });
  const rows = (Array.isArray(page.data) ? page.data : []).map((row: unknown) => recordOf(access, row));
  return { data: rows, total: page.pagination?.total ?? rows.length };
}

export async function getOne(
  call: Call,
  resource: string,
  params: { id: unknown; meta?: { with?: string[] } },
) {
  const access = accessOf(resource);
  const query = params.meta?.with?.length ? { with: params.meta.with.join(',') } : undefined;
  const answer = await call('GET', itemPath(access, params.id), { query });
  return { data: recordOf(access, answer.data) };
}

export async function getMany(
  call: Call,
  resource: string,
  params: { ids: readonly unknown[]; meta?: { with?: string[] } },
) {
  const access = accessOf(resource);
  if (params.ids.length === 0) return { data: [] };
  if (!access.idFilter) {
    const records = await Promise.all(
      params.ids.map((id) => getOne(call, resource, { id, meta: params.meta })),
    );
    return { data: records.map((record) => record.data) };
  }
  const { data } = await getList(call, resource, {
    pagination: { page: 1, perPage: params.ids.length },
    filter: { id: params.ids },
    meta: params.meta,
  });
  return { data };
}

export async function getManyReference(
  call: Call,
  resource: string,
  params: ListParams & { target: string; id: unknown },
) {
  const nested = accessOf(resource).nested;
  if (nested && nested.target === params.target) {
    return getList(call, resource, params, nested.path(params.id));
  }
  return getList(call, resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
}

export async function create(call: Call, resource: string, params: { data: AnyRecord }) {
  const access = accessOf(resource);
  const answer = await call('POST', access.path, { body: changedFields(params.data, undefined) });
  return { data: recordOf(access, answer.data) };
}

export async function update(
  call: Call,
  resource: string,
  params: { id: unknown; data: AnyRecord; previousData?: AnyRecord },
) {
  const access = accessOf(resource);
  const target = itemPath(access, params.id);
  if (access.idField) {
    // A setting: its value is replaced whole.
    const answer = await call('PUT', target, { body: { value: params.data.value } });
    return { data: recordOf(access, answer.data, params.previousData) };
  }
  const changes = changedFields(params.data, params.previousData);
  if (Object.keys(changes).length === 0) return getOne(call, resource, { id: params.id });
  const answer = await call('PATCH', target, { body: changes });
  return { data: recordOf(access, answer.data) };
}

export async function remove(
  call: Call,
  resource: string,
  params: { id: unknown; previousData?: AnyRecord },
) {
  await call('DELETE', itemPath(accessOf(resource), params.id));
  return { data: params.previousData ?? { id: params.id } };
}
