import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import { Role } from '../../http/roles.ts';
import { TAX_CLASSES } from '../pricing/destination-vat.ts';
import { defineResource, field, type Resource } from '../../resources/index.ts';
import { transports } from './shipping.tables.ts';
import { transportsForAddress } from './transports-for-address.ts';

// Shipping methods as a generic resource; money columns are cents.

export const transportResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'transport',
  description: 'shipping methods',
  table: transports,
  translations: transports.translations,
  fields: {
    id: field.id(transports.id),
    name: field.text(transports.name, {
      create: 'required',
      sort: true,
      translatable: true,
      minLength: 1,
      maxLength: 200,
    }),
    description: field.text(transports.description, { create: 'optional', translatable: true, maxLength: 2000 }),
    price: field.money(transports.price, { create: 'required', sort: true }),
    freeShippingThreshold: field.money(transports.freeShippingThreshold, {
      create: 'optional',
      nullable: true,
    }),
    includedWeightKg: field.decimal(transports.includedWeightKg, { create: 'optional', max: 100_000 }),
    overweightPricePerKg: field.money(transports.overweightPricePerKg, { create: 'optional' }),
    codFee: field.money(transports.codFee, { create: 'optional', description: 'Cash-on-delivery fee' }),
    taxClass: field.enum(transports.taxClass, TAX_CLASSES, {
      create: 'optional',
      nullable: true,
      description: "VAT class of shipping under destination VAT; null: the rate of the cart's main goods",
    }),
    position: field.int(transports.position, { create: 'optional', sort: true }),
    active: field.bool(transports.active, { create: 'optional', filter: 'eq' }),
    weightBands: field.computed(
      Type.Array(Type.Object({ upToKg: Type.Number(), price: Type.Number() })),
      () => sql`'[]'::json`,
      { description: "The rate's weight bands, in a list for one address (countryAlpha2)" },
    ),
    shippingZone: field.computed(
      Type.Union([
        Type.Object({ zoneId: Type.Integer(), zoneName: Type.String(), rateId: Type.Integer() }),
        Type.Null(),
      ]),
      () => sql`null::json`,
      { description: 'The zone whose rate prices it, in a list for one address (countryAlpha2)' },
    ),
    ...field.timestamps(transports),
  },
  read: { access: 'public' },
  write: { roles: [Role.Admin] },
  storefront: () => eq(transports.active, true),
  defaultSort: 'position',
  publicCache: true,
  countCache: true,
  listVariant: transportsForAddress,
});
