// react-admin's data provider for the service's `/rest/{domain}/{entity}` convention, over the
// typed client (packages/client), whose session middleware adds the token and refreshes it once on
// 401 TOKEN_EXPIRED. Plain TypeScript over fetch: it runs in Node as well (test/admin).
// The record calls follow the resource table (resource-calls.ts); the order moves, points,
// webhooks, users and reports are calls of their own typed paths (shop-actions.ts, report-calls.ts).
import type { ShopClient } from '../../packages/client/src/index.ts';
import { catalogIoActions } from './catalog-io-calls.ts';
import { mediaUploader } from './media-upload.ts';
import { reportActions } from './report-calls.ts';
import * as records from './resource-calls.ts';
import { orderActions, systemActions } from './shop-actions.ts';

export { ApiError } from './api-answer.ts';
export { changedFields, type ListParams, listQuery } from './resource-calls.ts';

type AnyRecord = records.AnyRecord;
type ManyParams = { ids: readonly unknown[]; meta?: { with?: string[] } };

export function createDataProvider(client: ShopClient) {
  const call = records.resourceCaller(client);
  return {
    getList: (resource: string, params: records.ListParams) => records.getList(call, resource, params),
    getOne: (resource: string, params: { id: unknown; meta?: { with?: string[] } }) =>
      records.getOne(call, resource, params),
    getMany: (resource: string, params: ManyParams) => records.getMany(call, resource, params),
    getManyReference: (resource: string, params: records.ListParams & { target: string; id: unknown }) =>
      records.getManyReference(call, resource, params),
    create: (resource: string, params: { data: AnyRecord }) => records.create(call, resource, params),
    update: (resource: string, params: { id: unknown; data: AnyRecord; previousData?: AnyRecord }) =>
      records.update(call, resource, params),
    async updateMany(resource: string, params: { ids: readonly unknown[]; data: AnyRecord }) {
      for (const id of params.ids) await records.update(call, resource, { id, data: params.data });
      return { data: [...params.ids] };
    },
    delete: (resource: string, params: { id: unknown; previousData?: AnyRecord }) =>
      records.remove(call, resource, params),
    async deleteMany(resource: string, params: { ids: readonly unknown[] }) {
      for (const id of params.ids) await records.remove(call, resource, { id });
      return { data: [...params.ids] };
    },
    ...orderActions(client.api),
    ...systemActions(client.api),
    ...reportActions(client),
    ...mediaUploader(client),
    ...catalogIoActions(client),
  };
}

export type ShopDataProvider = ReturnType<typeof createDataProvider>;
