import { Type } from '@sinclair/typebox';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { Role } from '../../http/roles.ts';
import { defineResource, field, type Resource, type Values } from '../../resources/index.ts';
import { categories, products } from '../catalog/catalog.tables.ts';
import type { PromotionAction, PromotionConditions } from '../pricing/promotion-rules.ts';
import { type PromotionDraft, promotionProblems, windowsOverlap } from './promotion-checks.ts';
import { ACTION_FIELDS, PromotionActionSchema, PromotionConditionsSchema } from './promotion.schemas.ts';
import { type PromotionRow, promotions } from './promotion.tables.ts';

// `checkout/promotion` (docs/promotions.md): written by Marketing, read by the back office.

type Stored = Pick<PromotionRow, 'kind' | 'conditions' | 'action' | 'startsAt' | 'endsAt' | 'priority' | 'exclusive' | 'active'>;

/** The row as it will be: the stored one (on update) with the written values over it. */
async function draftOf(db: Db, values: Values, id: number | undefined): Promise<Stored> {
  const [stored] = id === undefined ? [] : await db.select().from(promotions).where(eq(promotions.id, id));
  const pick = <K extends keyof Stored>(key: K, fallback: Stored[K]): Stored[K] =>
    (values[key] as Stored[K] | undefined) ?? (stored ? stored[key] : fallback);
  return {
    kind: pick('kind', 'cart'),
    conditions: pick('conditions', {}),
    action: pick('action', { type: 'percent', value: 0 }),
    startsAt: values.startsAt === undefined ? (stored?.startsAt ?? null) : (values.startsAt as Date | null),
    endsAt: values.endsAt === undefined ? (stored?.endsAt ?? null) : (values.endsAt as Date | null),
    priority: pick('priority', 0),
    exclusive: pick('exclusive', false),
    active: pick('active', true),
  };
}

function invalid(details: { field: string; message: string }[]): AppError {
  return new AppError('VALIDATION_FAILED', details.map((d) => `${d.field} ${d.message}`).join('; '), details);
}

function missingActionFields(action: PromotionAction): { field: string; message: string }[] {
  const given = action as Record<string, unknown>;
  return ACTION_FIELDS[action.type]
    .filter((key) => given[key] === undefined)
    .map((key) => ({ field: `action.${key}`, message: `is required for ${action.type}` }));
}

/** Ids a condition names that do not exist, as problems naming the condition. */
async function unknownIds(db: Db, c: PromotionConditions): Promise<{ field: string; message: string }[]> {
  const problems: { field: string; message: string }[] = [];
  const check = async (ids: number[] | undefined, table: typeof products | typeof categories, name: string) => {
    if (!ids?.length) return;
    const found = new Set((await db.select({ id: table.id }).from(table).where(inArray(table.id, ids))).map((r) => r.id));
    const missing = ids.filter((i) => !found.has(i));
    if (missing.length) problems.push({ field: `conditions.${name}`, message: `unknown: ${missing.join(', ')}` });
  };
  await check(c.productIds, products, 'productIds');
  await check(c.categoryIds, categories, 'categoryIds');
  return problems;
}

/** Another active exclusive promotion of the same kind and priority whose window meets this one's: 409. */
async function assertNoExclusiveOverlap(db: Db, draft: Stored, id: number | undefined): Promise<void> {
  if (!draft.exclusive || !draft.active) return;
  const others = await db
    .select({ id: promotions.id, startsAt: promotions.startsAt, endsAt: promotions.endsAt })
    .from(promotions)
    .where(
      and(
        eq(promotions.kind, draft.kind),
        eq(promotions.priority, draft.priority),
        eq(promotions.exclusive, true),
        eq(promotions.active, true),
        id === undefined ? sql`true` : ne(promotions.id, id),
      ),
    );
  const clash = others.find((o) => windowsOverlap(o, draft));
  if (clash) {
    throw new AppError('CONFLICT', `exclusive promotion ${clash.id} has the same priority and overlaps in time`, [
      { field: 'priority', message: `promotion ${clash.id} is exclusive at this priority in an overlapping window` },
    ]);
  }
}

async function checkPromotion(db: Db, values: Values, id: number | undefined): Promise<void> {
  const draft = await draftOf(db, values, id);
  // The action's checks read its fields: only once none is missing.
  const missing = missingActionFields(draft.action);
  const problems = [
    ...missing,
    ...(missing.length ? [] : promotionProblems(draft as PromotionDraft)),
    ...(await unknownIds(db, draft.conditions)),
  ];
  if (problems.length) throw invalid(problems);
  await assertNoExclusiveOverlap(db, draft, id);
}

export const promotionResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'promotion',
  description: 'promotions',
  table: promotions,
  translations: promotions.translations,
  fields: {
    id: field.id(promotions.id),
    name: field.text(promotions.name, {
      create: 'required',
      search: true,
      sort: true,
      translatable: true,
      minLength: 1,
      maxLength: 200,
    }),
    kind: field.enum(promotions.kind, ['catalog', 'cart'], {
      create: 'required',
      filter: 'eq',
      description: 'catalog: lowers the prices shown and charged; cart: applies in the quote',
    }),
    conditions: field.json(promotions.conditions, PromotionConditionsSchema, { create: 'optional' }),
    action: field.json(promotions.action, PromotionActionSchema, { create: 'required' }),
    startsAt: field.timestamp(promotions.startsAt, { create: 'optional', nullable: true, filter: 'range', sort: true }),
    endsAt: field.timestamp(promotions.endsAt, { create: 'optional', nullable: true, filter: 'range', sort: true }),
    priority: field.int(promotions.priority, {
      create: 'optional',
      filter: 'eq',
      sort: true,
      max: 1000,
      description: 'Higher applies first',
    }),
    exclusive: field.bool(promotions.exclusive, {
      create: 'optional',
      description: 'No promotion of lower priority applies after it',
    }),
    combinesWithCoupons: field.bool(promotions.combinesWithCoupons, {
      create: 'optional',
      description: "false: when it applies, the cart's coupon is left out",
    }),
    usageLimit: field.int(promotions.usageLimit, { create: 'optional', nullable: true, min: 1 }),
    usedCount: field.computed(
      Type.Integer(),
      () => sql`(select count(*)::int from promotion_redemption r where r.promotion_id = ${promotions.id})`,
      { description: 'Orders that used it (cancelled ones give their use back); read-only' },
    ),
    discountGiven: field.computed(
      Type.Number(),
      () => sql`(select coalesce(sum(r.amount), 0) * 0.01 from promotion_redemption r where r.promotion_id = ${promotions.id})`,
      { description: 'Money taken off the orders that used it (cart promotions); read-only' },
    ),
    active: field.bool(promotions.active, { create: 'optional', filter: 'eq', description: 'false: paused' }),
    ...field.timestamps(promotions),
  },
  read: { access: 'backend', roles: [Role.Admin, Role.Marketing] },
  write: { roles: [Role.Marketing] },
  hooks: {
    async beforeWrite(ctx, values, _op, id) {
      await checkPromotion(ctx.db, values, id);
    },
  },
});
