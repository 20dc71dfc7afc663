import { Type } from '@sinclair/typebox';
import type { PgTable } from 'drizzle-orm/pg-core';
import { FieldError } from './fields.ts';
import type { FieldDef, FilterWhere, Scope } from './types.ts';

// Filters that are more than `column = value`, declared on the resource like any other filter
// (so the query schema, the OpenAPI document, the statement shapes and the cached totals follow):
// a field filtered by a condition of its own (categoryId over a subtree), a computed field
// filtered by its expression (stockStatus), and parameters that are no field of the answer
// (onSale, option.<Name>).

/** `true`/`1` or `false`/`0`. */
export function parseBoolean(text: string): boolean {
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new FieldError('must be true or false');
}

/** One of the listed words. */
export function parseOneOf(values: readonly string[]): (text: string) => string {
  return (text) => {
    if (!values.includes(text)) throw new FieldError(`must be one of ${values.join(', ')}`);
    return text;
  };
}

export interface FilterOptions {
  /** The filter's condition; absent: the column (or a computed field's expression) equals the value. */
  where?: FilterWhere;
  /** How a value of the query string is read; absent: the field's own codec. */
  parse?: (text: string) => unknown;
  /** Other tables the condition reads (their versions key the cached totals too). */
  dependsOn?: PgTable[];
  volatile?: boolean;
}

/** Makes a field (stored or computed) filterable by equality, with its own condition if given. */
export function filterable(def: FieldDef, o: FilterOptions = {}): FieldDef {
  return {
    ...def,
    codec: o.parse ? { ...def.codec, parse: o.parse } : def.codec,
    filter: 'eq',
    where: o.where ?? def.where,
    dependsOn: o.dependsOn ?? def.dependsOn,
    volatile: o.volatile ?? def.volatile,
  };
}

/** A query parameter that filters but is no field of the answer (`onSale=true`, `option.Size=M`). */
export function filterParam(o: {
  where: FilterWhere;
  parse: (text: string) => unknown;
  description: string;
  read?: Scope;
  /** Named `<name>.<arg>`, the arg reaching `where` as a value of its own. */
  prefixed?: boolean;
  dependsOn?: PgTable[];
  volatile?: boolean;
}): FieldDef {
  const schema = Type.String();
  return {
    codec: { output: schema, input: schema, parse: o.parse, rangeable: false },
    read: o.read ?? 'public',
    nullable: false,
    update: false,
    writeScope: 'backend',
    filter: 'eq',
    sort: false,
    search: false,
    description: o.description,
    where: o.where,
    filterOnly: true,
    prefixed: o.prefixed,
    dependsOn: o.dependsOn,
    volatile: o.volatile,
  };
}
