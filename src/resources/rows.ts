import type { Row } from './repo.ts';
import type { FieldInfo, ReadContext, Resource, Scope } from './types.ts';

const converters = new WeakMap<Resource, Map<Scope, FieldInfo[]>>();

/** The readable fields whose stored value differs from the JSON value (money, dates, switched fields). */
function convertedFields(resource: Resource, scope: Scope): FieldInfo[] {
  let byScope = converters.get(resource);
  if (!byScope) {
    byScope = new Map();
    converters.set(resource, byScope);
  }
  let list = byScope.get(scope);
  if (!list) {
    list = resource.readable[scope].filter((f) => f.codec.fromDb || f.shownWhen);
    byScope.set(scope, list);
  }
  return list;
}

/**
 * Turns database rows into JSON values in place (cents → decimals, Date → ISO text, array JSON
 * text → arrays). Runs before relations are embedded: their keys are read from converted rows.
 */
export function toJsonRows(resource: Resource, ctx: ReadContext, rows: Row[]): Row[] {
  const fields = convertedFields(resource, ctx.scope);
  if (fields.length === 0) return rows;
  for (const row of rows) {
    for (const f of fields) {
      let value = row[f.name];
      if (f.codec.fromDb && value !== null && value !== undefined) value = f.codec.fromDb(value);
      row[f.name] = f.shownWhen && !ctx.settings?.[f.shownWhen] ? null : value;
    }
  }
  return rows;
}
