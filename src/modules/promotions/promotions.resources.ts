import { eq } from 'drizzle-orm';
import { AppError } from '../../http/errors.ts';
import { defineResource, field, type Resource } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { productResource } from '../catalog/product.resource.ts';
import { coupons, gifts } from './promotions.tables.ts';

// Coupons and gift rules as generic resources. The checkout reads these tables through
// promotions.repo.ts; money columns are cents.

export const couponResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'coupon',
  description: 'coupons',
  table: coupons,
  fields: {
    id: field.id(coupons.id),
    code: field.text(coupons.code, {
      create: 'required',
      filter: 'eq',
      search: true,
      sort: true,
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'Unique, case-insensitively',
    }),
    type: field.enum(coupons.type, ['percent', 'fixed'], { create: 'required', filter: 'eq' }),
    // Stored in hundredths (cents, or hundredths of a percent): the money codec fits both.
    value: field.money(coupons.value, {
      create: 'required',
      description: 'Percent (percent) or amount off (fixed)',
    }),
    minSubtotal: field.money(coupons.minSubtotal, { create: 'optional' }),
    startsAt: field.timestamp(coupons.startsAt, {
      create: 'optional',
      nullable: true,
      filter: 'range',
      sort: true,
    }),
    endsAt: field.timestamp(coupons.endsAt, {
      create: 'optional',
      nullable: true,
      filter: 'range',
      sort: true,
    }),
    usageLimit: field.int(coupons.usageLimit, { create: 'optional', nullable: true, min: 1 }),
    perCustomerLimit: field.int(coupons.perCustomerLimit, { create: 'optional', nullable: true, min: 1 }),
    usedCount: field.int(coupons.usedCount, { description: 'Read-only' }),
    active: field.bool(coupons.active, { create: 'optional', filter: 'eq' }),
    ...field.timestamps(coupons),
  },
  // Codes are commercial secrets until published: Admin and Marketing only.
  read: { access: 'backend', roles: [Role.Admin, Role.Marketing] },
  write: { roles: [Role.Marketing] },
  hooks: {
    async beforeWrite(_ctx, values, op) {
      const value = values.value;
      if (op === 'create' && values.type === 'percent' && typeof value === 'number' && value > 10_000) {
        throw new AppError('VALIDATION_FAILED', 'value of a percent coupon is at most 100', [
          { field: 'value', message: 'must be at most 100 for a percent coupon' },
        ]);
      }
      if (value === 0) {
        throw new AppError('VALIDATION_FAILED', 'value must be positive', [
          { field: 'value', message: 'must be positive' },
        ]);
      }
    },
  },
});

export const giftResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'gift',
  description: 'gift rules',
  table: gifts,
  translations: gifts.translations,
  fields: {
    id: field.id(gifts.id),
    name: field.text(gifts.name, { create: 'optional', translatable: true, maxLength: 200 }),
    productIds: field.intArray(gifts.productIds, {
      create: 'required',
      maxItems: 200,
      description: 'Eligible products',
    }),
    minSubtotal: field.money(gifts.minSubtotal, { create: 'optional', filter: 'range', sort: true }),
    maxQty: field.int(gifts.maxQty, { create: 'optional', min: 1, max: 1000 }),
    active: field.bool(gifts.active, { create: 'optional', filter: 'eq' }),
    ...field.timestamps(gifts),
  },
  relations: {
    products: { kind: 'ids', target: () => productResource, key: 'productIds', read: 'public' },
  },
  read: { access: 'public' },
  write: { roles: [Role.Marketing] },
  storefront: () => eq(gifts.active, true),
  publicCache: true,
  countCache: true,
});
