import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.ts';
import { bearer } from '../helpers/app.ts';

export interface Pair {
  access_token: string;
  refresh_token: string;
}

/** A superuser defined in configuration, with a plain-text (development) password. */
export const ROOT = { username: 'root@example.com', password: 'root-password', name: 'Root', roles: [1] };

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

export function post(
  app: App,
  url: string,
  payload: unknown,
  token?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });
}

export function get(app: App, url: string, token?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
}

export async function login(
  app: App,
  ctx: 'admin' | 'customer',
  username: string,
  password: string,
): Promise<Pair> {
  const res = await post(app, `/rest/auth/${ctx}/login`, { username, password });
  if (res.statusCode !== 200) throw new Error(`login ${username} answered ${res.statusCode} ${res.body}`);
  return res.json() as Pair;
}

export async function registerCustomer(
  app: App,
  fields: Record<string, unknown> = {},
): Promise<Pair & { email: string; password: string }> {
  const email = (fields.email as string | undefined) ?? uniqueEmail('customer');
  const password = (fields.password as string | undefined) ?? 'customer-password';
  const res = await post(app, '/rest/auth/customer/register', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    ...fields,
    email,
    password,
  });
  if (res.statusCode !== 201) throw new Error(`register answered ${res.statusCode} ${res.body}`);
  return { ...(res.json() as Pair), email, password };
}

/** Creates a database admin user through the API with the given superuser token. */
export async function createAdmin(
  app: App,
  rootToken: string,
  fields: { username?: string; password?: string; roles: number[]; name?: string; active?: boolean },
): Promise<{ id: number; username: string; password: string }> {
  const username = fields.username ?? uniqueEmail('admin');
  const password = fields.password ?? 'admin-password';
  const res = await post(app, '/rest/system/admin-user', { ...fields, username, password }, rootToken);
  if (res.statusCode !== 201) throw new Error(`create admin answered ${res.statusCode} ${res.body}`);
  return { id: (res.json() as { data: { id: number } }).data.id, username, password };
}
