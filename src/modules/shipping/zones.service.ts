import { eq, ne, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { ResourceHooks, Values } from '../../resources/index.ts';
import { bandsProblem } from '../pricing/weight-bands.ts';
import { toCents } from '../../lib/money.ts';
import { type PostalRules, shippingZones, type WeightBandJson } from './zones.tables.ts';
import { postalRuleProblem, sameCoverage, type ZoneRules } from './zones.ts';

// The write checks of zones and rates (docs/shipping-and-tax.md), inside the write's transaction.

const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field} ${message}`, [{ field, message }]);

const upper = (list: unknown) => [...new Set((list as string[]).map((s) => s.toUpperCase()))];

/** Codes as written, upper case and without duplicates; a rule that cannot be read is a 400. */
function normalRules(rules: PostalRules): PostalRules {
  const clean = (list: string[], side: 'include' | 'exclude') =>
    [...new Set(list.map((rule) => rule.replace(/\s+/g, '').toUpperCase()))].map((rule) => {
      const problem = postalRuleProblem(rule);
      if (problem) throw invalid(`postalCodes.${side}`, problem);
      return rule;
    });
  return { include: clean(rules.include, 'include'), exclude: clean(rules.exclude, 'exclude') };
}

type Coverage = Omit<ZoneRules, 'id' | 'name'>;

function coverageOf(row: Values): Coverage {
  return {
    countries: row.countries as string[],
    regions: row.regions as string[],
    postalCodes: row.postalCodes as PostalRules,
    priority: row.priority as number,
  };
}

export const zoneHooks: ResourceHooks = {
  async beforeWrite(ctx, values, op, id) {
    if (values.countries !== undefined) values.countries = upper(values.countries);
    if (values.regions !== undefined) values.regions = upper(values.regions);
    if (values.postalCodes !== undefined) values.postalCodes = normalRules(values.postalCodes as PostalRules);
    const [before] =
      op === 'update' && id !== undefined
        ? await ctx.db.select().from(shippingZones).where(eq(shippingZones.id, id))
        : [];
    const defaults: Values = { regions: [], postalCodes: { include: [], exclude: [] }, priority: 0 };
    const zone = coverageOf({ ...defaults, ...before, ...values });
    // Zone writes take turns (they are rare): two that would tie, written at the same moment,
    // cannot both pass the check below.
    await queryRows(ctx.db, sql`select pg_advisory_xact_lock(hashtext('shipping_zone'))`);
    const others = await ctx.db
      .select()
      .from(shippingZones)
      .where(ne(shippingZones.id, id ?? 0));
    const twin = others.find((other) => sameCoverage(coverageOf(other), zone));
    if (twin) {
      const name = String(values.name ?? before?.name ?? 'this zone');
      throw new AppError(
        'ZONE_CONFLICT',
        `zones "${name}" and "${twin.name}" (${twin.id}) hold the same addresses with the same priority: narrow one or change its priority`,
        [{ field: 'priority', message: `ties with zone ${twin.id} "${twin.name}"` }],
      );
    }
  },
};

export const rateHooks: ResourceHooks = {
  async beforeWrite(_ctx, values) {
    const bands = values.weightBands as WeightBandJson[] | undefined;
    if (bands === undefined) return;
    bands.forEach((band, i) => {
      try {
        toCents(band.price);
      } catch {
        throw invalid(`weightBands[${i}].price`, 'has more than two decimals');
      }
    });
    const problem = bandsProblem(bands);
    if (problem)
      throw new AppError('VALIDATION_FAILED', problem, [{ field: 'weightBands', message: problem }]);
  },
};
