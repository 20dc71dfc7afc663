import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type TestApp, startTestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';

interface Span {
  name: string;
  traceId: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** A local OTLP/HTTP receiver: keeps every span of the JSON posted to /v1/traces. */
async function startOtlpReceiver(): Promise<{ url: string; spans: Span[]; server: Server }> {
  const spans: Span[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
        };
        for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

const attribute = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue;

describe('traces', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

  before(async () => {
    receiver = await startOtlpReceiver();
    t = await startTestApp({ config: { tracing: { endpoint: receiver.url } } });
  });
  after(async () => {
    await t.close();
    receiver.server.close();
  });

  test('when OTEL_EXPORTER_OTLP_ENDPOINT is set, then a request sends a span for its route (and its pg queries on PostgreSQL)', async () => {
    const res = await t.app.inject({ url: '/rest/product/product/424242' });
    assert.equal(res.statusCode, 404);
    const deadline = Date.now() + 10_000;
    const routeSpan = () =>
      receiver.spans.find((s) => attribute(s, 'http.route') === '/rest/product/product/:id');
    while (!routeSpan() && Date.now() < deadline) await sleep(100);
    const span = routeSpan();
    assert.ok(span, `a span for the route among ${receiver.spans.map((s) => s.name).join(', ')}`);
    if (testEngine === 'postgres') {
      // PGlite runs in the process: there is no pg client to trace.
      const pgSpan = () =>
        receiver.spans.find(
          (s) => attribute(s, 'db.system.name') === 'postgresql' && s.traceId === span.traceId,
        );
      while (!pgSpan() && Date.now() < deadline) await sleep(100);
      assert.ok(
        pgSpan(),
        `a pg span in the request's trace among ${receiver.spans.map((s) => s.name).join(', ')}`,
      );
    }
  });
});
