import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { retryingConflicts } from '../../src/db/errors.ts';
import { errorHandler } from '../../src/http/error-handler.ts';
import { UnavailableLog } from '../../src/http/unavailable-log.ts';

// A transaction PostgreSQL rolls back to break a deadlock wrote nothing: it is run again, and when
// it still cannot be made the client is told to retry (409), never shown a 500.

/** The error as drizzle throws it: the driver's error, with its SQLSTATE, in `cause`. */
const wrapped = (code: string) =>
  Object.assign(new Error('Failed query: update product_variant …'), {
    cause: Object.assign(new Error('deadlock detected'), { code }),
  });

test('a transaction rolled back by a deadlock runs again, and its second run answers', async () => {
  let runs = 0;
  const answer = await retryingConflicts(async () => {
    runs++;
    if (runs === 1) throw wrapped('40P01');
    return 'placed';
  });
  assert.equal(answer, 'placed');
  assert.equal(runs, 2);
});

test('another failure is not run again, and a conflict stops after three runs', async () => {
  let runs = 0;
  await assert.rejects(
    retryingConflicts(async () => {
      runs++;
      throw wrapped('23505');
    }),
  );
  assert.equal(runs, 1);
  runs = 0;
  await assert.rejects(
    retryingConflicts(async () => {
      runs++;
      throw wrapped('40001');
    }),
  );
  assert.equal(runs, 3);
});

test('a conflict that reaches the client is a 409 CONFLICT with Retry-After, without SQL', async () => {
  const app = Fastify();
  app.setErrorHandler(errorHandler(new UnavailableLog(app.log)));
  app.get('/', async () => {
    throw wrapped('40P01');
  });
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  assert.equal(res.statusCode, 409);
  assert.equal(res.headers['retry-after'], '1');
  assert.equal(res.json().error.code, 'CONFLICT');
  assert.doesNotMatch(res.body, /update|product_variant|deadlock/i);
});
