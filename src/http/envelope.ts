import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** `{success: true, data}`: the envelope of every resource answer. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ success: Type.Literal(true), data });
}

export const Pagination = Type.Object(
  {
    current_page: Type.Integer({ minimum: 1 }),
    per_page: Type.Integer({ minimum: 1, description: 'The page size actually applied' }),
    total: Type.Integer({ minimum: 0 }),
    total_pages: Type.Integer({ minimum: 0 }),
    has_next: Type.Boolean(),
    has_prev: Type.Boolean(),
  },
  { $id: 'Pagination' },
);

/** `{success: true, data: [...], pagination}`: the envelope of list answers. */
export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    pagination: Type.Ref(Pagination),
  });
}

export const SuccessOnly = Type.Object({ success: Type.Literal(true) });

// The one way a handler or service builds a success body: ok(data), okList(rows, pagination),
// okOnly(); never a literal envelope (test/platform/one-way.test.ts).

export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

export function okList<T>(
  data: T[],
  pagination: Static<typeof Pagination>,
): { success: true; data: T[]; pagination: Static<typeof Pagination> } {
  return { success: true, data, pagination };
}

export function okOnly(): { success: true } {
  return { success: true };
}
