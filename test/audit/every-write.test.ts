import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Access } from '../../src/http/access.ts';
import type { AuditDeclaration } from '../../src/http/audit.ts';
import { login, ROOT } from '../auth/auth-helpers.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { type Shop, WRITE_FIXTURES } from './write-fixtures.ts';

// Every back-office write is audited (docs/security.md, "Audit log"). The walk reads the app's own
// OpenAPI document, so a write route added later is walked too: with no fixture it fails here by
// name, and without an entry after a valid call it fails by name.

interface Entry {
  id: number;
  actor: string;
  entity: string;
  entityId: string;
}

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/** `/rest/a/:id` → `/rest/a/{id}`, the document's spelling. */
const docPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('every back-office write leaves an audit entry', () => {
  let t: TestApp;
  let shop: Shop;
  let auditor: Record<string, string>;
  const entries = async (query: string): Promise<Entry[]> => {
    const res = await t.app.inject({ method: 'GET', url: `/rest/system/audit?${query}`, headers: auditor });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: Entry[] }).data;
  };

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT] } });
    shop = { app: t.app, token: (await login(t.app, 'admin', ROOT.username, ROOT.password)).access_token };
    // The log is read by an Admin (3), as the back office reads it.
    auditor = await adminHeaders(t.app, [3]);
  });
  after(() => t.close());

  test('when each write operation an admin token may call is made, then the log names the admin and the entity', async () => {
    const declared = new Map<string, { access?: Access; audit?: AuditDeclaration }>();
    for (const route of t.app.routeList) {
      for (const method of [route.method].flat())
        declared.set(`${method.toLowerCase()} ${docPath(route.url)}`, route.config ?? {});
    }
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const problems: string[] = [];
    let walked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!WRITES.has(method)) continue;
        const config = declared.get(`${method} ${path}`);
        // Customers' and everyone's writes (login, cart, place-order…) are not back-office writes.
        if (config?.access?.kind !== 'admin' && config?.access?.kind !== 'customerOrAdmin') continue;
        const name = `${op.operationId} (${method.toUpperCase()} ${path})`;
        const fixture = WRITE_FIXTURES[op.operationId];
        if (!fixture) {
          problems.push(`${name}: no fixture in test/audit/write-fixtures.ts`);
          continue;
        }
        walked++;
        const write = await fixture(shop);
        const url = path.replace(/\{(\w+)\}/g, (_, p: string) => String(write.params?.[p]));
        const [newest] = await entries('limit=1');
        const res = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          headers: { ...bearer(write.as?.token ?? shop.token), ...write.form?.headers },
          ...(write.body ? { payload: write.body } : {}),
          ...(write.form ? { payload: write.form.payload } : {}),
        });
        if (res.statusCode >= 300) {
          problems.push(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          continue;
        }
        const data = (res.json() as { data?: { id?: unknown } }).data;
        const entityId = String(write.entityId ?? write.params?.id ?? data?.id);
        const actor = write.as?.actor ?? `static:${ROOT.username}`;
        const entity = config.audit?.entity;
        const kept = await entries(`actor=${actor}&entity=${entity}&entityId=${entityId}&limit=5`);
        if (!kept.some((e) => e.id > (newest?.id ?? 0)))
          problems.push(`${name}: no audit entry of ${entity} ${entityId} by ${actor}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(walked >= 40, `only ${walked} write operations walked`);
  });
});
