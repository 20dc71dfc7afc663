import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { changePoints, customerExists, insertLedgerEntry } from './loyalty.repo.ts';

export interface Adjustment {
  customerId: number;
  delta: number;
  note: string;
}

export interface AdjustmentResult {
  customerId: number;
  balance: number;
  entry: { id: number; delta: number; reason: string; note: string | null; createdAt: string };
}

/**
 * An administrator's correction of a points balance, with its ledger row, in one transaction.
 * The guarded UPDATE refuses a balance below zero (422) even against concurrent orders spending points.
 */
export async function adjustPoints(db: Db, actor: string, adjustment: Adjustment): Promise<AdjustmentResult> {
  const { customerId, delta, note } = adjustment;
  return db.transaction(async (tx) => {
    const balance = await changePoints(tx, customerId, delta);
    if (balance === undefined) {
      if (!(await customerExists(tx, customerId)))
        throw new AppError('NOT_FOUND', `no customer ${customerId}`);
      throw new AppError('UNPROCESSABLE', 'the adjustment would make the points balance negative', [
        { field: 'delta', message: 'larger than the balance' },
      ]);
    }
    const row = await insertLedgerEntry(tx, { customerId, delta, reason: 'admin_adjustment', note, actor });
    return {
      customerId,
      balance,
      entry: {
        id: row.id,
        delta: row.delta,
        reason: row.reason,
        note: row.note,
        createdAt: row.createdAt.toISOString(),
      },
    };
  });
}
