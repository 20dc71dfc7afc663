import type { App } from '../../src/app.ts';
import { formData } from '../media/media-fixtures.ts';

// Sending a CSV file as the back office does, following the job, and exporting.

export interface ImportReport {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  dryRun: boolean;
  total: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: { row: number; column: string; message: string }[];
}

/** A test app with the job queue running (imports are its jobs), polled often. */
export const IMPORT_APP_CONFIG = {
  jobs: { enabled: true, relayIntervalMs: 20, pollIntervalSeconds: 0.5 },
};

export async function sendCsv(
  app: App,
  headers: Record<string, string>,
  file: string | Buffer,
  options: { dryRun?: boolean; fetchImages?: boolean; fileName?: string } = {},
) {
  const form = formData([
    { name: 'file', value: file, fileName: options.fileName ?? 'products.csv', type: 'text/csv' },
  ]);
  return app.inject({
    method: 'POST',
    url: `/rest/product/import?dryRun=${options.dryRun ?? false}&fetchImages=${options.fetchImages ?? false}`,
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
}

/** Polls the job until it is over. */
export async function finished(app: App, headers: Record<string, string>, jobId: number): Promise<ImportReport> {
  for (let i = 0; i < 6000; i++) {
    const res = await app.inject({ method: 'GET', url: `/rest/product/import/${jobId}`, headers });
    if (res.statusCode !== 200) throw new Error(`import ${jobId}: ${res.statusCode} ${res.body}`);
    const report = res.json().data as ImportReport;
    if (report.status === 'done' || report.status === 'failed') return report;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`import ${jobId} did not finish`);
}

/** Sends the file and waits for its report. */
export async function imported(
  app: App,
  headers: Record<string, string>,
  file: string | Buffer,
  options: { dryRun?: boolean; fetchImages?: boolean; fileName?: string } = {},
): Promise<ImportReport> {
  const res = await sendCsv(app, headers, file, options);
  if (res.statusCode !== 202) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return finished(app, headers, res.json().data.jobId);
}

export async function exported(app: App, headers: Record<string, string>, query = ''): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/rest/product/export${query}`, headers });
  if (res.statusCode !== 200) throw new Error(`export: ${res.statusCode} ${res.body}`);
  return res.body;
}

/** A CSV line from cells, quoted where needed, with this delimiter. */
export function csvLine(cells: readonly string[], delimiter = ','): string {
  return cells
    .map((c) => (/[",;\n\r]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c))
    .join(delimiter);
}
