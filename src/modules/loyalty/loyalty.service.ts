import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { appliedPageSize, paginationOf, scopeOf } from '../../resources/index.ts';
import { getSetting } from '../settings/settings.service.ts';
import { changeLoyaltyPoints } from '../customers/customer.repo.ts';
import { customerExists, insertLedgerEntry, type LedgerRow, pageLedger } from './loyalty.repo.ts';
import type { AdjustmentBodyType, LedgerEntryJsonType, LedgerQueryType } from './loyalty.schemas.ts';
import { recordAudit } from '../audit/audit.ts';
import { okList } from '../../http/envelope.ts';

export interface AdjustmentResult {
  customerId: number;
  balance: number;
  entry: LedgerEntryJsonType;
}

/** A ledger row as the caller sees it: a customer is not told which admin changed their points. */
function entryJson(row: LedgerRow, caller: Caller): LedgerEntryJsonType {
  return {
    id: row.id,
    customerId: row.customerId,
    delta: row.delta,
    reason: row.reason,
    orderId: row.orderId,
    note: row.note,
    actor: caller.kind === 'admin' ? row.actor : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** `reason`, or its alias `note`: one of them, or both saying the same. */
function reasonOf(body: AdjustmentBodyType): string {
  const { reason, note } = body;
  if (reason !== undefined && note !== undefined && reason !== note) {
    throw new AppError('VALIDATION_FAILED', 'note is an alias of reason: send one of them', [
      { field: 'note', message: 'differs from reason' },
    ]);
  }
  const text = reason ?? note;
  if (text === undefined) {
    throw new AppError('VALIDATION_FAILED', 'reason is required', [
      { field: 'reason', message: 'is required' },
    ]);
  }
  return text;
}

/**
 * An administrator's correction of a points balance, with its ledger row naming the admin, in one
 * transaction. The guarded UPDATE refuses a balance below zero (422) even against concurrent
 * orders spending points; one past the int4 column fails the statement (422, nothing written).
 */
export async function adjustPoints(
  db: Db,
  caller: Caller,
  body: AdjustmentBodyType,
): Promise<AdjustmentResult> {
  const { customerId, delta } = body;
  const note = reasonOf(body);
  const actor = caller.kind === 'admin' ? caller.sub : null;
  return db.transaction(async (tx) => {
    const balance = await changeLoyaltyPoints(tx, customerId, delta);
    if (balance === undefined) {
      if (!(await customerExists(tx, customerId)))
        throw new AppError('NOT_FOUND', `no customer ${customerId}`);
      throw new AppError('UNPROCESSABLE', 'the adjustment would make the points balance negative', [
        { field: 'delta', message: 'larger than the balance' },
      ]);
    }
    const row = await insertLedgerEntry(tx, { customerId, delta, reason: 'admin_adjustment', note, actor });
    if (actor !== null) {
      await recordAudit(tx, {
        actor,
        action: 'adjust_points',
        entity: 'customer',
        entityId: customerId,
        changes: {
          loyaltyPoints: { before: balance - delta, after: balance },
          ...(note ? { reason: { before: null, after: note } } : {}),
        },
      });
    }
    return { customerId, balance, entry: entryJson(row, caller) };
  });
}

/**
 * Ledger rows, newest first. The back office reads any customer's (or all); a customer token reads
 * its own only: naming another customer is 404, as for any record a customer may not see.
 */
export async function listLedger(deps: { db: Db; config: Config }, caller: Caller, query: LedgerQueryType) {
  let customerId = query.customerId;
  if (caller.kind === 'customer') {
    if (customerId !== undefined && customerId !== caller.customerId) {
      throw new AppError('NOT_FOUND', `no ledger of customer ${customerId}`);
    }
    customerId = caller.customerId;
  }
  // Not the resource list path: one customer's ledger, chosen by a path parameter and refused (404) for another's, which resource routes do not have.
  const scope = scopeOf(caller);
  const ceiling = scope === 'backend' ? 0 : await getSetting(deps.db, deps.config, 'rest_max_page_size');
  const perPage = appliedPageSize(query.limit ?? 0, scope, ceiling);
  const page = query.page ?? 1;
  const { rows, total } = await pageLedger(deps.db, {
    customerId,
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  return okList(
    rows.map((row) => entryJson(row, caller)),
    paginationOf(page, perPage, total),
  );
}
