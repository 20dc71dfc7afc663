import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Readable } from 'node:stream';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { Role } from '../../http/roles.ts';
import { querySchema, requestContext } from '../../resources/index.ts';
import { productResource } from '../catalog/product.resource.ts';
import { ImportBody, ImportJobJson, ImportJobParams, ImportQuery, ImportStarted } from './catalog-io.schemas.ts';
import { showImport, startImport } from './catalog-io.service.ts';
import { exportProductsCsv } from './export.service.ts';
import { rowsInErrorCsv } from './rows-in-error.ts';
import { receiveCsv, receivedCsv } from './upload.ts';

// Catalog import and export as CSV (docs/import-export.md): thin routes over the services.

const tags = ['catalog-io'];
const products = access.admin(Role.Products);

type Plugin = Parameters<FastifyPluginAsyncTypebox>[0];

function importRoutes(app: Plugin): void {
  app.post(
    '/rest/product/import',
    {
      schema: {
        tags,
        operationId: 'importProducts',
        summary: 'Import products from a CSV file',
        description:
          "multipart/form-data with the CSV as `file`, in WooCommerce's product columns. Answers at once with the job's id; the job upserts by SKU, one product per transaction, and reports problems by row and column. With `dryRun=true` nothing is written.",
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        body: ImportBody,
        response: { 202: Envelope(ImportStarted) },
      },
      config: { access: products, audit: { entity: 'import_job' } },
    },
    async (request, reply) => {
      const file = receivedCsv(request);
      const { dryRun = false, fetchImages = false } = request.query;
      const jobId = await startImport(app.db, request.caller, file, { dryRun, fetchImages });
      return reply.status(202).send(ok({ jobId }));
    },
  );
  app.get(
    '/rest/product/import/:jobId',
    {
      schema: {
        tags,
        operationId: 'getProductImport',
        summary: "Get an import's progress and report",
        params: ImportJobParams,
        response: { 200: Envelope(ImportJobJson), 404: errorResponse(404) },
      },
      config: { access: products },
    },
    async (request) => ok(await showImport(app.db, request.params.jobId)),
  );
  app.get(
    '/rest/product/import/:jobId/rows-in-error',
    {
      schema: {
        tags,
        operationId: 'getProductImportRowsInError',
        summary: "Download an import's rows in error as CSV",
        description:
          "The rows of the file that had a problem, with the file's header and all their cells as written, and an `Import problems` column at the end saying what was wrong; cells that look like formulas are written as the export writes them. Fixed and imported again, the file lands those rows. 409 while the import runs.",
        params: ImportJobParams,
        response: {
          200: {
            description: 'RFC 4180 CSV with a byte-order mark, in the delimiter of the imported file',
            content: { 'text/csv': { schema: Type.String() } },
          },
          404: errorResponse(404),
          409: errorResponse(409),
        },
      },
      config: { access: products },
    },
    async (request, reply) => {
      const { jobId } = request.params;
      const csv = await rowsInErrorCsv(app.db, jobId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${jobId}-rows-in-error.csv"`)
        .send(csv);
    },
  );
}

function exportRoute(app: Plugin): void {
  app.get(
    '/rest/product/export',
    {
      schema: {
        tags,
        operationId: 'exportProducts',
        summary: 'Export products as CSV (streamed)',
        description:
          "WooCommerce's product columns, with `Name:<locale>` and `Description:<locale>` for the shop's other locales; the product list's filters and search choose the products. Importing an export changes nothing.",
        querystring: querySchema(productResource, false),
        response: {
          200: {
            description: 'RFC 4180 CSV with a byte-order mark: a header line, then a line per product and per variation',
            // Sent as a stream that Fastify pipes; documented as the text it becomes.
            content: { 'text/csv': { schema: Type.Unsafe<Readable>(Type.String()) } },
          },
        },
      },
      config: { access: products },
    },
    async (request, reply) => {
      const { sort: _sort, with: _with, ...filters } = request.query as Record<string, unknown>;
      const csv = await exportProductsCsv(requestContext(request), filters);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="products.csv"')
        .send(csv);
    },
  );
}

/** The catalog's import (multipart upload, job) and export (CSV stream). */
export const catalogIoModule: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(async (upload) => {
    await upload.register(multipart, {
      attachFieldsToBody: 'keyValues',
      onFile: receiveCsv,
      limits: { fileSize: app.config.import.maxBytes, files: 1, fields: 1, fieldSize: 200, parts: 2 },
    });
    upload.addHook('onSend', neverStored);
    importRoutes(upload);
  });
  await app.register(async (download) => {
    download.addHook('onSend', neverStored);
    exportRoute(download);
  });
};
