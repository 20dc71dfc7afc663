import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import type { App } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { products } from '../../src/modules/catalog/catalog.tables.ts';
import { customers } from '../../src/modules/customers/customer.tables.ts';
import { bearer, sessionToken } from './app.ts';

// Small data factories for the catalog tests: rows through the back-office API when the test is
// about the API, straight through drizzle when a test only needs many rows.

export async function adminHeaders(app: App, roles: number[] = [1]): Promise<Record<string, string>> {
  return bearer(await sessionToken(app, { sub: 'static:t@example.com', ctx: 'admin', roles }));
}

export async function customerHeaders(app: App, customerId: number): Promise<Record<string, string>> {
  return bearer(await sessionToken(app, { sub: String(customerId), ctx: 'customer' }));
}

let sequence = 0;
/** A value unique within the test process. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${process.pid}-${sequence}`;
}

export async function insertCustomer(
  db: Db,
  overrides: Partial<typeof customers.$inferInsert> = {},
): Promise<number> {
  const rows = await db
    .insert(customers)
    .values({
      email: `${unique('c')}@example.com`,
      passwordHash: 'not-a-real-hash-for-tests',
      firstName: 'Test',
      lastName: 'Customer',
      ...overrides,
    })
    .returning({ id: customers.id });
  return rows[0].id;
}

type Json = Record<string, unknown>;

/** POSTs through the back-office API and returns `data`; asserts 201. */
export async function create(
  app: App,
  path: string,
  payload: Json,
  headers?: Record<string, string>,
): Promise<Json> {
  const res = await app.inject({
    method: 'POST',
    url: path,
    headers: headers ?? (await adminHeaders(app)),
    payload,
  });
  assert.equal(res.statusCode, 201, `POST ${path}: ${res.body}`);
  return res.json().data as Json;
}

export async function createCategory(app: App, overrides: Json = {}): Promise<Json> {
  return create(app, '/rest/product/category', { name: unique('Category'), ...overrides });
}

export async function createProduct(app: App, overrides: Json = {}): Promise<Json> {
  return create(app, '/rest/product/product', {
    name: unique('Product'),
    sku: unique('SKU'),
    price: 10,
    stockQty: 10,
    ...overrides,
  });
}

/** Many products at once (multi-row insert), for paging and plan tests. */
export async function insertProducts(
  db: Db,
  count: number,
  each: (i: number) => Partial<typeof products.$inferInsert> = () => ({}),
): Promise<void> {
  const tag = unique('bulk');
  for (let start = 0; start < count; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      rows.push({
        sku: `${tag}-${i}`,
        slug: `${tag}-${i}`,
        name: `Bulk ${i}`,
        price: 100 + i,
        stockQty: 5,
        ...each(i),
      });
    }
    await db.insert(products).values(rows);
  }
}

export async function setStoredSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db.execute(
    sql`insert into setting (key, value) values (${key}, ${JSON.stringify(value)}::jsonb)
        on conflict (key) do update set value = excluded.value`,
  );
}
