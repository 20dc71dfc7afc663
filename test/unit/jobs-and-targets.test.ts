import assert from 'node:assert/strict';
import { BlockList } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, test } from 'node:test';
import { jobIdOf, retryDelayMs } from '../../src/modules/outbox/queue.ts';
import { deliveryJobs } from '../../src/modules/webhooks/delivery.ts';
import { guardedLookup, isPrivateAddress } from '../../src/lib/public-address.ts';

describe('job back-off', () => {
  test('when the defaults apply, then 10 attempts wait from 30 s up to 12 h, growing each time', () => {
    const delays = Array.from({ length: 9 }, (_, i) => retryDelayMs(i + 1, 30_000, 43_200_000, 10));
    assert.equal(delays[0], 30_000);
    assert.equal(delays[8], 43_200_000);
    for (let i = 1; i < delays.length; i++) assert.ok(delays[i] > delays[i - 1]);
    assert.equal(retryDelayMs(20, 30_000, 43_200_000, 10), 43_200_000, 'never past the cap');
  });

  test('when the same attempt is queued twice, then it has the same job id, a valid UUID', () => {
    assert.equal(jobIdOf('webhook-delivery:1:2'), jobIdOf('webhook-delivery:1:2'));
    assert.notEqual(jobIdOf('webhook-delivery:1:2'), jobIdOf('webhook-delivery:1:3'));
    assert.match(jobIdOf('x'), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('webhook delivery jobs', () => {
  test('when 120 first attempts and 2 retries are queued, then 3 jobs carry the 120 and each retry has its own', () => {
    const due = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, attempts: 0, nextAttemptAt: null }));
    const later = new Date('2026-11-25T12:00:00Z');
    const retries = [
      { id: 500, attempts: 1, nextAttemptAt: later },
      { id: 501, attempts: 3, nextAttemptAt: later },
    ];
    const jobs = deliveryJobs([...due.slice(0, 60), ...retries, ...due.slice(60)]);
    const attempts = (job: (typeof jobs)[number]) => ('attempts' in job.data! ? job.data.attempts : []);
    const dueNow = jobs.filter((j) => j.startAfter === undefined);
    assert.deepEqual(
      dueNow.map((j) => attempts(j).length),
      [50, 50, 20],
    );
    assert.deepEqual(
      dueNow.flatMap(attempts).map((a) => [a.deliveryId, a.attempt]),
      due.map((d) => [d.id, 1]),
      'every first attempt once, in order',
    );
    const scheduled = jobs.filter((j) => j.startAfter !== undefined);
    assert.deepEqual(
      scheduled.map((j) => [attempts(j), j.startAfter]),
      [
        [[{ deliveryId: 500, attempt: 2 }], later],
        [[{ deliveryId: 501, attempt: 4 }], later],
      ],
    );
    assert.equal(new Set(jobs.map((j) => j.id)).size, jobs.length, 'distinct ids');
    assert.deepEqual(
      deliveryJobs([...due.slice(0, 60), ...retries, ...due.slice(60)]).map((j) => j.id),
      jobs.map((j) => j.id),
      'queueing the same attempts again gives the same ids (pg-boss inserts nothing twice)',
    );
  });
});

describe('webhook targets', () => {
  test('when an address is loopback, private, link-local or unique-local, then it is private', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      assert.equal(isPrivateAddress(a), true, a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) {
      assert.equal(isPrivateAddress(a), false, a);
    }
  });

  test("when an address is one of the host's own interfaces, then it is refused like a private one", () => {
    const own = new BlockList();
    own.addAddress('8.8.4.4', 'ipv4');
    own.addAddress('2001:4860:4860::8844', 'ipv6');
    for (const a of [
      '8.8.4.4',
      '::ffff:8.8.4.4',
      '64:ff9b::808:404',
      '2002:808:404::1',
      '2001:4860:4860::8844',
    ]) {
      assert.equal(isPrivateAddress(a, own), true, a);
    }
    assert.equal(isPrivateAddress('8.8.8.8', own), false);
    for (const entries of Object.values(networkInterfaces())) {
      for (const entry of entries ?? []) assert.equal(isPrivateAddress(entry.address), true, entry.address);
    }
  });

  test('when a name resolves to loopback and private targets are not allowed, then the connection lookup refuses it', async () => {
    const refused = await new Promise<Error | null>((resolve) =>
      guardedLookup(false)('localhost', {}, (err) => resolve(err)),
    );
    assert.match(String(refused?.message), /private address/);
    const allowed = await new Promise<Error | null>((resolve) =>
      guardedLookup(true)('localhost', {}, (err) => resolve(err)),
    );
    assert.equal(allowed, null);
  });
});
