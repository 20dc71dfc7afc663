import { type TSchema, Type } from '@sinclair/typebox';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { fromCents, toCents } from '../lib/money.ts';
import { WebUrl } from '../http/web-url.ts';
import type { BooleanSetting, Codec, FieldDef, FilterMode, ReadContext, Scope } from './types.ts';

/** A value that does not fit its field (in a filter or a write): becomes a 400 naming the field. */
export class FieldError extends Error {}

export const INT32_MAX = 2_147_483_647;
const MONEY_MAX = 10_000_000;

export interface FieldOptions {
  read?: Scope;
  onlyScope?: Scope;
  nullable?: boolean;
  create?: 'required' | 'optional';
  update?: boolean;
  writeScope?: 'backend';
  filter?: boolean | FilterMode;
  sort?: boolean;
  search?: boolean;
  description?: string;
  shownWhen?: BooleanSetting;
  volatile?: boolean;
  /** A text per locale (docs/translations.md). */
  translatable?: boolean;
  /** Unique among the rows; checked within each locale for a translatable field (the column's own index otherwise). */
  unique?: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  maxItems?: number;
}

/** Adds null to a schema's type (a type array, so Ajv's coercion never turns null into 0). */
function orNull(schema: TSchema): TSchema {
  const copy: Record<string, unknown> = { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.enum)) copy.enum = [...schema.enum, null];
  return Type.Unsafe(copy);
}

function build(codec: Codec, column: PgColumn | undefined, o: FieldOptions): FieldDef {
  const nullable = o.nullable ?? false;
  const input = nullable ? orNull(codec.input) : codec.input;
  const filter = o.filter === true ? (codec.rangeable ? 'both' : 'eq') : o.filter || undefined;
  return {
    codec: { ...codec, input },
    column,
    read: o.onlyScope ?? o.read ?? 'public',
    onlyScope: o.onlyScope,
    nullable,
    create: o.create,
    update: o.update ?? o.create !== undefined,
    writeScope: o.writeScope ?? 'owner',
    filter,
    sort: o.sort ?? false,
    search: o.search ?? false,
    shownWhen: o.shownWhen,
    volatile: o.volatile,
    translatable: o.translatable,
    unique: o.unique,
    description: o.description,
  };
}

const INTEGER = /^-?\d{1,16}$/;
const DECIMAL = /^-?\d{1,12}(\.\d{1,6})?$/;

function parseInteger(text: string): number {
  if (!INTEGER.test(text)) throw new FieldError('must be an integer');
  return withinInt4(Number(text));
}

/** A filter value compared with an int4 column must fit it (the database would fail the statement). */
function withinInt4(n: number): number {
  if (Math.abs(n) > INT32_MAX) throw new FieldError('is out of range');
  return n;
}

function parseDecimal(text: string): number {
  if (!DECIMAL.test(text)) throw new FieldError('must be a decimal number');
  return Number(text);
}

function cents(value: unknown): number {
  try {
    return toCents(Number(value));
  } catch {
    throw new FieldError('must be an amount with at most two decimals');
  }
}

const ISO_DATE_START = /^\d{4}-\d{2}-\d{2}/;

function isoDate(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** Drops undefined options: Ajv refuses a keyword whose value is undefined. */
function defined<T extends Record<string, unknown>>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/** Arrays are selected as JSON text: JSON.parse is much cheaper than the drivers' array parsers. */
const arrayAsJson = {
  select: (column: PgColumn) => sql`array_to_json(${column})::text`,
  fromDb: (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v),
};

function bounds(o: FieldOptions, min: number, max: number) {
  return { minimum: o.min ?? min, maximum: o.max ?? max };
}

/** Field constructors: the column, its JSON codec and the options (scope, writes, filters). */
export const field = {
  id(column: PgColumn): FieldDef {
    return build(
      { output: Type.Integer(), input: Type.Integer(), parse: parseInteger, rangeable: true },
      column,
      { filter: 'eq', sort: true },
    );
  },

  int(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const input = Type.Integer(bounds(o, 0, INT32_MAX));
    return build({ output: Type.Integer(), input, parse: parseInteger, rangeable: true }, column, o);
  },

  /** numeric columns read as JS numbers (weights, VAT rates). */
  decimal(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const input = Type.Number(bounds(o, 0, 1_000_000));
    return build({ output: Type.Number(), input, parse: parseDecimal, rangeable: true }, column, o);
  },

  /** Integer cents in the database, a decimal number (19.99) in JSON and in filters. */
  money(column: PgColumn, o: FieldOptions = {}): FieldDef {
    return build(
      {
        output: Type.Number(),
        input: Type.Number(bounds(o, 0, MONEY_MAX)),
        fromDb: (v) => (v === null ? null : fromCents(Number(v))),
        // Exact decimal text (1999 → 19.99, 2000 → 20.00): the same JSON number as fromCents. An
        // integer times 0.01 is a numeric of scale 2, exact and cheaper than a division and round.
        json: (c) => sql`(${c} * 0.01)`,
        toDb: (v) => (v === null ? null : cents(v)),
        parse: (text) => withinInt4(cents(parseDecimal(text))),
        rangeable: true,
      },
      column,
      o,
    );
  },

  text(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const maxLength = o.maxLength ?? 1000;
    const input = Type.String(
      defined({ minLength: o.minLength ?? 0, maxLength, pattern: o.pattern, format: o.format }),
    );
    const parse = (text: string) => {
      if (text.length > maxLength) throw new FieldError('is too long');
      return text;
    };
    return build({ output: Type.String(), input, parse, rangeable: false }, column, o);
  },

  enum(column: PgColumn, values: readonly string[], o: FieldOptions = {}): FieldDef {
    const schema = Type.Unsafe<string>({ type: 'string', enum: [...values] });
    const parse = (text: string) => {
      if (!values.includes(text)) throw new FieldError(`must be one of ${values.join(', ')}`);
      return text;
    };
    return build({ output: schema, input: schema, parse, rangeable: false }, column, o);
  },

  bool(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const parse = (text: string) => {
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw new FieldError('must be true or false');
    };
    return build({ output: Type.Boolean(), input: Type.Boolean(), parse, rangeable: false }, column, o);
  },

  timestamp(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const schema = Type.String({ format: 'date-time', maxLength: 40 });
    const parse = (text: string) => {
      // An ISO date starts with its four-digit year: Date.parse alone takes "12345" for the year
      // 12345 (whose text the database refuses) and "-1" for 2001.
      const ms = text.length <= 40 && ISO_DATE_START.test(text) ? Date.parse(text) : Number.NaN;
      if (Number.isNaN(ms)) throw new FieldError('must be an ISO 8601 date');
      return new Date(ms);
    };
    const toDb = (v: unknown) => (v === null ? null : new Date(String(v)));
    // In JSON rows the database writes the same ISO text that Date#toISOString gives (UTC, milliseconds).
    const json = (c: PgColumn | SQL) => sql`to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return build(
      { output: schema, input: schema, fromDb: isoDate, json, toDb, parse, rangeable: true },
      column,
      o,
    );
  },

  /** createdAt (sortable) and updatedAt of a table, both back-office only. */
  timestamps(t: { createdAt: PgColumn; updatedAt: PgColumn }): { createdAt: FieldDef; updatedAt: FieldDef } {
    return {
      createdAt: field.timestamp(t.createdAt, { read: 'backend', sort: true }),
      updatedAt: field.timestamp(t.updatedAt, { read: 'backend' }),
    };
  },

  /** A link or media address (WebUrl). */
  url(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const input = WebUrl({ maxLength: o.maxLength });
    return build({ output: Type.String(), input, parse: (text) => text, rangeable: false }, column, o);
  },

  /** A list of media addresses (WebUrl each). */
  urls(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const input = Type.Array(WebUrl({ maxLength: o.maxLength }), { maxItems: o.maxItems ?? 50 });
    return build(
      { output: Type.Array(Type.String()), input, parse: (text) => text, rangeable: false, ...arrayAsJson },
      column,
      o,
    );
  },

  intArray(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const input = Type.Array(Type.Integer({ minimum: 1, maximum: INT32_MAX }), {
      maxItems: o.maxItems ?? 500,
      uniqueItems: true,
    });
    const codec = {
      output: Type.Array(Type.Integer()),
      input,
      parse: parseInteger,
      rangeable: false,
      ...arrayAsJson,
    };
    return build(codec, column, o);
  },

  textArray(column: PgColumn, o: FieldOptions = {}): FieldDef {
    const item = Type.String(
      defined({ minLength: 1, maxLength: o.maxLength ?? 2000, format: o.format, pattern: o.pattern }),
    );
    const input = Type.Array(item, { maxItems: o.maxItems ?? 50 });
    const parse = (text: string) => text;
    return build(
      { output: Type.Array(Type.String()), input, parse, rangeable: false, ...arrayAsJson },
      column,
      o,
    );
  },

  /**
   * A jsonb column holding a structured value (a product's options): `schema` validates writes and
   * describes answers; never filtered or sorted here.
   */
  json(column: PgColumn, schema: TSchema, o: FieldOptions = {}): FieldDef {
    const parse = () => {
      throw new FieldError('cannot be filtered');
    };
    return build({ output: schema, input: schema, parse, rangeable: false }, column, {
      ...o,
      filter: false,
      sort: false,
    });
  },

  /** A read-only value computed in SQL, in the same query as the page. */
  computed(output: TSchema, expr: (ctx: ReadContext) => SQL, o: FieldOptions = {}): FieldDef {
    const parse = (text: string) => text;
    const def = build({ output, input: output, parse, rangeable: false }, undefined, { ...o, filter: false });
    return { ...def, expr, create: undefined, update: false };
  },
};
