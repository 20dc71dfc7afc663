import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { insertPromotionRedemptions, takePromotionUse } from '../promotions/promotion.repo.ts';
import type { Quote } from './quote.ts';

// Place-order's step for the cart promotions the quote applied (docs/promotions.md): the uses of the
// limited ones are counted with guarded UPDATEs in id order (so two orders never deadlock), among the
// contended rows at the end of the transaction, and every applied promotion's amount is recorded.

export async function usePromotions(tx: Db, quote: Quote, orderId: number): Promise<void> {
  const applied = quote.totals.promotions;
  if (applied.length === 0) return;
  const limited = new Set(quote.promotionLimits.filter((p) => p.usageLimit !== null).map((p) => p.id));
  for (const promotion of [...applied].sort((a, b) => a.id - b.id)) {
    if (limited.has(promotion.id) && !(await takePromotionUse(tx, promotion.id))) {
      throw new AppError('PROMOTION_USED_UP', `promotion "${promotion.name}" has been used up; quote again`, [
        { field: 'promotions', message: `promotion ${promotion.id} reached its usage limit` },
      ]);
    }
  }
  await insertPromotionRedemptions(tx, orderId, applied);
}
