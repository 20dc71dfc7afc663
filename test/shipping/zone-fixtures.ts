import assert from 'node:assert/strict';
import type { App } from '../../src/app.ts';
import { adminToken, call } from '../checkout/fixtures.ts';

// Zones, rates and tax rates written through the back-office API, as an operator would.

export async function admin(app: App): Promise<{ token: string }> {
  return { token: await adminToken(app, [3]) };
}

export async function create(app: App, entity: string, body: Record<string, unknown>): Promise<number> {
  const res = await call(app, 'POST', `/rest/checkout/${entity}`, await admin(app), body);
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { data: { id: number } }).data.id;
}

export async function setSetting(app: App, key: string, value: unknown): Promise<void> {
  const res = await call(app, 'PUT', `/rest/system/setting/${key}`, await admin(app), { value });
  assert.equal(res.statusCode, 200, res.body);
}

/** Cents of a decimal answer. */
export const cents = (n: number) => Math.round(n * 100);
