import { Type } from '@sinclair/typebox';

export const ImportQuery = Type.Object(
  {
    dryRun: Type.Optional(
      Type.Boolean({ default: false, description: 'Check every row and write nothing; the report says what would change' }),
    ),
    fetchImages: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "Take the `Images` addresses into the media library (each fetched once, as an upload is checked) and show them as the products' and variants' `media`; off: the addresses are kept as `images`. A dry run fetches and checks them, and keeps none",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportBody = Type.Object(
  {
    file: Type.String({
      contentMediaType: 'text/csv',
      description: "The CSV file: UTF-8 with or without a byte-order mark, `,` or `;`, WooCommerce's product columns",
    }),
  },
  { additionalProperties: false },
);

export const ImportStarted = Type.Object(
  { jobId: Type.Integer({ description: 'The import job, to follow with getProductImport' }) },
  { additionalProperties: false },
);

export const ImportJobParams = Type.Object(
  { jobId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) },
  { additionalProperties: false },
);

export const ImportProblemJson = Type.Object(
  {
    row: Type.Integer({ description: 'The record of the file: 1 is the header line, 2 the first product' }),
    column: Type.String({ description: "The column's name as the file has it; empty for the whole row" }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const ImportJobJson = Type.Object(
  {
    id: Type.Integer(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
    dryRun: Type.Boolean(),
    fetchImages: Type.Boolean({ description: 'Whether the `Images` addresses are taken into the media library' }),
    fileName: Type.String(),
    total: Type.Integer({ description: 'Product rows in the file (known once the job has started)' }),
    processed: Type.Integer(),
    created: Type.Integer({ description: 'Rows that made a product or variant (on a dry run: would make)' }),
    updated: Type.Integer({ description: 'Rows that changed one' }),
    unchanged: Type.Integer({ description: 'Rows that matched the shop already' }),
    errors: Type.Array(ImportProblemJson, { description: 'Problems by row and column (the first 5,000)' }),
    createdAt: Type.String({ format: 'date-time' }),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);
