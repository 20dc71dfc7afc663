// Catalog import and export (docs/import-export.md) on their typed paths: the upload starts a job,
// its report is polled, its rows in error are a CSV, the export is the CSV of the product list's
// current filters.
import type { paths, ShopClient } from '../../packages/client/src/index.ts';
import { bodyOf, dataOf } from './api-answer.ts';

export type ImportReport =
  paths['/rest/product/import/{jobId}']['get']['responses'][200]['content']['application/json']['data'];

export function catalogIoActions(client: ShopClient) {
  return {
    /** POST /rest/product/import (multipart): the job's id. */
    async startImport(file: File, options: { dryRun: boolean; fetchImages: boolean }): Promise<number> {
      const form = new FormData();
      form.append('file', file, file.name);
      const answer = await client.api.POST('/rest/product/import', {
        params: { query: options },
        // The typed body names the part; the browser sends the form with its boundary.
        body: { file: file.name },
        bodySerializer: () => form,
      });
      return dataOf(answer).jobId;
    },
    /** GET /rest/product/import/{jobId}: progress, figures and problems by row and column. */
    async importReport(jobId: number): Promise<ImportReport> {
      return dataOf(await client.api.GET('/rest/product/import/{jobId}', { params: { path: { jobId } } }));
    },
    /** GET /rest/product/import/{jobId}/rows-in-error: the failing rows as the file wrote them, with their problems. */
    async rowsInError(jobId: number): Promise<string> {
      const result = await client.api.GET('/rest/product/import/{jobId}/rows-in-error', {
        params: { path: { jobId } },
        parseAs: 'text',
      });
      return bodyOf(result) ?? '';
    },
    /** GET /rest/product/export with the product list's query: the CSV text. */
    async exportProducts(query: Record<string, string>): Promise<string> {
      const result = await client.runtimeApi.GET('/rest/product/export', { params: { query }, parseAs: 'text' });
      return bodyOf(result) ?? '';
    },
  };
}
