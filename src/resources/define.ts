import { getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { missingTranslationFilter, translationsField } from './translations.ts';
import { canRead, type FieldInfo, type Resource, type ResourceDef, SCOPES, type Scope } from './types.ts';

/** A resource with translatable fields also has `translations` and the `missingTranslation` filter. */
function withTranslations(def: ResourceDef): ResourceDef {
  const translatable = Object.entries(def.fields).filter(([, f]) => f.translatable);
  if (!def.translations) {
    if (translatable.length) throw new Error(`${def.domain}/${def.entity}: translatable fields need a translations column`);
    return def;
  }
  for (const [fieldName, f] of translatable) {
    if (!f.column) throw new Error(`${def.domain}/${def.entity}.${fieldName}: only a stored field is translatable`);
  }
  return {
    ...def,
    fields: {
      ...def.fields,
      translations: translationsField(def.translations, def.fields),
      missingTranslation: missingTranslationFilter(def.translations, def.fields),
    },
  };
}

/**
 * Turns one entity definition into the resource every part of the framework works from:
 * the routes, the list builder, the serializers and the OpenAPI schemas all read it.
 */
export function defineResource(declared: ResourceDef): Resource {
  const def = withTranslations(declared);
  const name = `${def.domain}/${def.entity}`;
  const keyOf = new Map<PgColumn, string>(
    Object.entries(getTableColumns(def.table) as Record<string, PgColumn>).map(([key, column]) => [
      column,
      key,
    ]),
  );
  const fields: FieldInfo[] = Object.entries(def.fields).map(([fieldName, f]) => {
    const columnKey = f.column ? keyOf.get(f.column) : undefined;
    if (f.column && !columnKey)
      throw new Error(`${name}.${fieldName}: the column is not in the resource's table`);
    if (!f.column && !f.expr && !f.where)
      throw new Error(`${name}.${fieldName}: needs a column, an expression or a filter condition`);
    return { ...f, name: fieldName, columnKey };
  });
  const field = new Map(fields.map((f) => [f.name, f]));
  const id = field.get('id');
  if (!id?.column) throw new Error(`${name}: needs an id field`);
  const readable = Object.fromEntries(
    SCOPES.map((scope) => [
      scope,
      fields.filter((f) => !f.filterOnly && (f.onlyScope ? f.onlyScope === scope : canRead(scope, f.read))),
    ]),
  ) as Record<Scope, FieldInfo[]>;
  const ownerField = def.owner ? field.get(def.owner) : undefined;
  if (def.owner && !ownerField?.column) throw new Error(`${name}: owner field ${def.owner} is not a column`);
  const defaultSort = (def.defaultSort ?? 'id').split(',').map((term) => {
    const desc = term.startsWith('-');
    const f = field.get(desc ? term.slice(1) : term);
    if (!f?.column) throw new Error(`${name}: default sort field ${term} is not a column`);
    return { field: f, desc };
  });
  return {
    def,
    name,
    path: `/rest/${def.domain}/${def.entity}`,
    fields,
    field,
    readable,
    idColumn: id.column,
    ownerField,
    defaultSort,
    operations: def.write ? (def.write.operations ?? ['create', 'update', 'delete']) : [],
  };
}
