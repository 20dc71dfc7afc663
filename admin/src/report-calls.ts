// The reports (GET /rest/report/{name}): each on its own path of the API document, so the screens
// get the report's typed data; the CSV of the same report for a download.
import type { paths, ShopClient } from '../../packages/client/src/index.ts';
import { bodyOf, dataOf } from './api-answer.ts';

type Api = ShopClient['api'];
export type ReportName = 'sales' | 'top-products' | 'coupons' | 'promotions' | 'loyalty';
type ReportOperation<Name extends ReportName> = paths[`/rest/report/${Name}`]['get'];
export type ReportQuery<Name extends ReportName> = NonNullable<ReportOperation<Name>['parameters']['query']>;
export type ReportData<Name extends ReportName> =
  ReportOperation<Name>['responses'][200]['content']['application/json']['data'];

type ReportCalls = { [Name in ReportName]: (query: ReportQuery<Name>) => Promise<ReportData<Name>> };

function reportCalls(api: Api): ReportCalls {
  return {
    sales: async (query) => dataOf(await api.GET('/rest/report/sales', { params: { query } })),
    'top-products': async (query) =>
      dataOf(await api.GET('/rest/report/top-products', { params: { query } })),
    coupons: async (query) => dataOf(await api.GET('/rest/report/coupons', { params: { query } })),
    promotions: async (query) => dataOf(await api.GET('/rest/report/promotions', { params: { query } })),
    loyalty: async (query) => dataOf(await api.GET('/rest/report/loyalty', { params: { query } })),
  };
}

export function reportActions(client: ShopClient) {
  const calls = reportCalls(client.api);
  return {
    /** GET /rest/report/{name}: a report's JSON. */
    async report<Name extends ReportName>(name: Name, query: ReportQuery<Name> = {}) {
      const call: ReportCalls[Name] = calls[name];
      return { data: await call(query) };
    },
    /** The same report as CSV (Accept: text/csv), for a download link. */
    async reportCsv(name: ReportName, query: Record<string, string> = {}): Promise<string> {
      const result = await client.runtimeApi.GET(`/rest/report/${name}`, {
        params: { query },
        headers: { accept: 'text/csv' },
        parseAs: 'text',
      });
      return bodyOf(result) ?? '';
    },
  };
}
