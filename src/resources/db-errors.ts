import { postgresError } from '../db/errors.ts';
import { AppError } from '../http/errors.ts';
import type { Resource } from './types.ts';

// Constraint violations become the client's answer: a duplicate is 409 CONFLICT, a reference
// to a missing record 422 UNPROCESSABLE, a record still referenced 409 on delete. The answer
// names the field (from the driver's "Key (sku)=…" detail), never SQL or table names.

/** The resource field a violation's detail names ("Key (lower(code))=(x)" → code). */
function fieldOf(resource: Resource, detail: string | undefined): string {
  const inner = /Key \((.+?)\)=/.exec(detail ?? '')?.[1] ?? '';
  const column = /([a-z_][a-z0-9_]*)(::\w+)?\)*$/.exec(inner)?.[1] ?? '';
  const camel = column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return resource.field.has(camel) ? camel : 'id';
}

/** Maps a database error to an AppError when it is the client's fault; otherwise returns it unchanged. */
export function mapDbError(err: unknown, resource: Resource, op: 'create' | 'update' | 'delete'): unknown {
  const pg = postgresError(err);
  if (!pg) return err;
  const field = fieldOf(resource, pg.detail);
  switch (pg.code) {
    case '23505':
      return new AppError('CONFLICT', `${field} is already taken`, [{ field, message: 'is already taken' }]);
    case '23001': // restrict_violation: ON DELETE RESTRICT
      return new AppError('CONFLICT', `this ${resource.def.entity} is still in use`);
    case '23503':
      if (op === 'delete') return new AppError('CONFLICT', `this ${resource.def.entity} is still in use`);
      return new AppError('UNPROCESSABLE', `${field} refers to a record that does not exist`, [
        { field, message: 'refers to a record that does not exist' },
      ]);
    case '23514':
      return new AppError('UNPROCESSABLE', 'a value breaks a rule of this entity');
    // 22003 (a number out of range) is answered by handleError (src/http/errors.ts) for every route.
    case '22P02':
    case '22007':
    case '22008':
      return new AppError('VALIDATION_FAILED', 'a value is out of range');
    default:
      return err;
  }
}
