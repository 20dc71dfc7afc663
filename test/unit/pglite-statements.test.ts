import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as pglite from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { PgliteStatements } from '../../src/db/pglite-statements.ts';
import { boundTexts } from '../helpers/bound-values.ts';

// PGlite's prepared statements receive their values as bound parameters: whatever a client sends
// must arrive as the same value, never as SQL.

describe('PgliteStatements', () => {
  let client: PGlite;
  let statements: PgliteStatements;
  before(async () => {
    client = new PGlite();
    await client.waitReady;
    await client.exec('create table note (id int primary key, body text)');
    await client.exec(`insert into note values (1, 'kept')`);
    statements = new PgliteStatements(client, pglite);
  });
  after(() => client.close());

  const echo = (values: unknown[]) =>
    statements.execute(
      'echo_values',
      'select $1::text, $2::int, $3::numeric, $4::boolean, $5::int[], $6::text[], $7::text',
      values,
    );

  test('when any text is sent, then the statement receives exactly that text', async () => {
    await fc.assert(
      fc.asyncProperty(boundTexts, async ([text, texts]) => {
        const [[first, , , , , array]] = await echo([text, 1, 1, true, [], texts, null]);
        assert.equal(first, text);
        assert.deepEqual(array, texts);
      }),
      { numRuns: 300 },
    );
  });

  test('when text tries to break out of its literal, then it stays text and the table is untouched', async () => {
    for (const attack of [
      "'); drop table note; --",
      "\\'; drop table note; --",
      "E'\\\\'",
      '$$ x $$',
      '"}',
    ]) {
      const [[text, , , , , array]] = await echo([attack, 1, 1, true, [], [attack], null]);
      assert.equal(text, attack);
      assert.deepEqual(array, [attack]);
    }
    assert.equal((await client.query('select body from note where id = 1')).rows.length, 1);
  });

  test('when numbers, booleans, arrays and null are sent, then they arrive with their type', async () => {
    const [[, int, decimal, flag, ints, , nothing]] = await echo([null, -42, 12.5, false, [3, -1], [], null]);
    assert.equal(int, -42);
    assert.equal(Number(decimal), 12.5);
    assert.equal(flag, false);
    assert.deepEqual(ints, [3, -1]);
    assert.equal(nothing, null);
  });

  test('when a value holds a NUL character, then it is refused as PostgreSQL refuses it (22021)', async () => {
    await assert.rejects(echo(['a\0b', 1, 1, true, [], [], null]), { code: '22021' });
    await assert.rejects(echo(['a', 1, 1, true, [], ['\0'], null]), { code: '22021' });
  });

  test('when a statement fails, then it rejects with its SQLSTATE and the next statement runs', async () => {
    await assert.rejects(statements.execute('divide', 'select 1 / $1::int', [0]), { code: '22012' });
    assert.deepEqual(await statements.execute('divide', 'select 1 / $1::int', [1]), [[1]]);
    await assert.rejects(statements.execute('broken', 'select from nowhere_at_all', []), { code: '42P01' });
    assert.deepEqual(await statements.execute('echo_one', 'select $1::int', [7]), [[7]]);
  });

  test('when a transaction is open on the connection, then a statement waits for its end and never reads its rows', async () => {
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const rolledBack = client
      .transaction(async (tx) => {
        await tx.query(`insert into note values (2, 'uncommitted')`);
        inserted();
        await turns(5);
        throw new Error('rolled back');
      })
      .catch(() => 'rolled back');
    await insertedOnce;
    const [[notes]] = await statements.execute('note_count', 'select count(*)::int from note', []);
    assert.equal(await rolledBack, 'rolled back');
    assert.equal(notes, 1);
  });

  test('when many statements are queued at once, then the event loop turns between any two of them', async () => {
    // A request arriving meanwhile (a new connection, a health probe) is read after the statement
    // that is running, not after the whole queue.
    let finished = 0;
    const queued = Array.from({ length: 20 }, (_, i) =>
      statements
        .execute('busy_sum', 'select sum(g) from generate_series(1, $1::int) g', [20_000 + i])
        .then(() => finished++),
    );
    const finishedAtNextTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(finished)));
    const finishedAtFifthTurn = await turns(4).then(() => finished);
    await Promise.all(queued);
    assert.equal(finished, 20);
    assert.ok(finishedAtNextTurn <= 1, `${finishedAtNextTurn} statements ran before the loop turned once`);
    assert.ok(finishedAtFifthTurn < 20, 'the whole queue ran within five turns of the loop');
  });
});

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
