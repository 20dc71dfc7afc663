import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, sessionToken, startTestApp, type TestApp } from '../helpers/app.ts';
import { insertCustomer } from '../helpers/catalog-factories.ts';
import { ADMIN_ROLES, BACKEND_READERS, READ_BY_EVERY_ADMIN } from '../helpers/read-roles.ts';

// Back-office read roles through HTTP: an admin holding one role reads a personal or commercial
// list only when that role is among its readers; catalog and content are read by every role.

describe('who reads what in the back office', () => {
  let t: TestApp;
  const tokens = new Map<number, string>();

  before(async () => {
    t = await startTestApp();
    await insertCustomer(t.database.db, { email: 'personal-data@example.com' });
    for (const role of ADMIN_ROLES) {
      tokens.set(
        role,
        await sessionToken(t.app, { sub: `static:role-${role}@example.com`, ctx: 'admin', roles: [role] }),
      );
    }
  });
  after(() => t.close());

  for (const [path, readers] of Object.entries(BACKEND_READERS)) {
    test(`when an admin with a single role lists ${path}, then only ${readers.join(', ')} get 200, the others 403`, async () => {
      for (const role of ADMIN_ROLES) {
        const res = await t.app.inject({ method: 'GET', url: path, headers: bearer(tokens.get(role)!) });
        const expected = readers.includes(role) ? 200 : 403;
        assert.equal(res.statusCode, expected, `role ${role} on ${path}: ${res.body.slice(0, 200)}`);
        if (expected === 403) {
          assert.equal(res.json().error.code, 'FORBIDDEN');
          assert.doesNotMatch(res.body, /personal-data@example\.com/);
        }
      }
    });
  }

  test('when a Products-only admin reads customers, an address or a customer by id, then 403 and no e-mail in any answer', async () => {
    const products = bearer(tokens.get(5)!);
    for (const url of [
      '/rest/customer/customer/1',
      '/rest/customer/customer/item',
      '/rest/customer/address/item',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: products });
      assert.equal(res.statusCode, 403, url);
      assert.doesNotMatch(res.body, /@example\.com/);
    }
  });

  test('when any admin role lists catalog, content, shipping and gifts, then 200 with the backend fields', async () => {
    for (const role of ADMIN_ROLES) {
      for (const path of READ_BY_EVERY_ADMIN) {
        const res = await t.app.inject({ method: 'GET', url: path, headers: bearer(tokens.get(role)!) });
        assert.equal(res.statusCode, 200, `role ${role} on ${path}`);
      }
    }
  });

  test('when the OpenAPI document describes a personal list, then it names the roles that may read it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = doc.paths['/rest/customer/customer'].get;
    assert.match(operation.description, /role 3 or 6 or 8/);
  });
});
