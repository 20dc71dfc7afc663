import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { PostgresStatements } from '../../src/db/postgres-statements.ts';
import { boundTexts } from '../helpers/bound-values.ts';

// PostgreSQL's all-JSON reads: values arrive as bound parameters, exactly as sent, whatever type
// the server describes for them; a text column comes back as its UTF-8 bytes, JSON parsed.

const URL = process.env.TEST_DATABASE_URL;

describe('PostgresStatements', { skip: URL ? false : 'PostgreSQL only (TEST_DATABASE_URL)' }, () => {
  let statements: PostgresStatements;
  before(() => {
    statements = new PostgresStatements({
      url: URL as string,
      max: 2,
      connectMs: 2_000,
      queryMs: 500,
      startupOptions: '-c statement_timeout=10000 -c plan_cache_mode=force_generic_plan',
      logger: undefined,
    });
  });
  after(() => statements.end());

  const echo = (values: unknown[]) =>
    statements.execute(
      'echo_values',
      `select $1::text, to_json($2::int), to_json($3::numeric), to_json($4::boolean), to_json($5::int[]),
        to_json($6::text[]), $7::text, to_json($8::timestamptz)`,
      values,
    );

  test('when any text is sent, then the statement receives exactly that text and answers its UTF-8 bytes', async () => {
    await fc.assert(
      fc.asyncProperty(boundTexts, async ([text, texts]) => {
        const [[first, , , , , array]] = await echo([text, 1, 1, true, [], texts, null, null]);
        assert.ok(Buffer.isBuffer(first));
        assert.deepEqual(first, Buffer.from(text));
        assert.deepEqual(array, texts);
      }),
      { numRuns: 200 },
    );
  });

  test('when numbers, booleans, arrays, dates and null are sent, then they arrive with their type', async () => {
    const at = new Date('2026-11-28T10:00:00.123Z');
    for (const flag of [true, false]) {
      const [[, int, decimal, bound, ints, , nothing, time]] = await echo([
        null,
        -42,
        12.5,
        flag,
        [3, -1],
        [],
        null,
        at,
      ]);
      assert.equal(int, -42);
      assert.equal(decimal, 12.5);
      assert.equal(bound, flag);
      assert.deepEqual(ints, [3, -1]);
      assert.equal(nothing, null);
      assert.equal(Date.parse(time as string), at.getTime());
    }
  });

  test('when text tries to break out of its literal, then it stays text', async () => {
    for (const attack of ["'); select pg_sleep(5); --", "\\'; drop table x; --", '$$ x $$', '"}']) {
      const [[text, , , , , array]] = await echo([attack, 1, 1, true, [], [attack], null, null]);
      assert.equal(String(text), attack);
      assert.deepEqual(array, [attack]);
    }
  });

  test('when a statement runs, then its session has the settings of the startup options', async () => {
    const [[mode]] = await statements.execute(
      'plan_mode',
      "select to_json(current_setting('plan_cache_mode'))",
      [],
    );
    assert.equal(mode, 'force_generic_plan');
  });

  test('when a statement has no parameters, then it is still kept prepared on its connection', async () => {
    // The simple protocol would parse and plan it at every call, and keep nothing.
    const probe =
      "select to_json((select count(*) from pg_prepared_statements where statement like '%kept_probe%'))";
    const [[kept]] = await statements.execute('kept_probe', probe, []);
    assert.equal(kept, 1);
  });

  test('when a statement fails, then it rejects with its SQLSTATE and the next statement runs', async () => {
    await assert.rejects(statements.execute('divide', 'select to_json(1 / $1::int)', [0]), { code: '22012' });
    assert.deepEqual(await statements.execute('divide', 'select to_json(1 / $1::int)', [1]), [[1]]);
    await assert.rejects(statements.execute('', 'select a', []), { code: '42703' });
  });

  test('when an answer does not come within the query timeout, then it fails as a timeout and the next statement runs', async () => {
    await assert.rejects(statements.execute('slow', 'select to_json(pg_sleep($1::float))', [3]), {
      code: 'QUERY_TIMEOUT',
    });
    assert.deepEqual(await statements.execute('after_slow', 'select to_json($1::int)', [5]), [[5]]);
  });
});
