import { eq } from 'drizzle-orm';
import { Role } from '../../http/roles.ts';
import { defineResource, field, type Resource } from '../../resources/index.ts';
import { transports } from './shipping.tables.ts';

// Shipping methods as a generic resource; money columns are cents.

export const transportResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'transport',
  description: 'shipping methods',
  table: transports,
  fields: {
    id: field.id(transports.id),
    name: field.text(transports.name, { create: 'required', sort: true, minLength: 1, maxLength: 200 }),
    description: field.text(transports.description, { create: 'optional', maxLength: 2000 }),
    price: field.money(transports.price, { create: 'required', sort: true }),
    freeShippingThreshold: field.money(transports.freeShippingThreshold, {
      create: 'optional',
      nullable: true,
    }),
    includedWeightKg: field.decimal(transports.includedWeightKg, { create: 'optional', max: 100_000 }),
    overweightPricePerKg: field.money(transports.overweightPricePerKg, { create: 'optional' }),
    codFee: field.money(transports.codFee, { create: 'optional', description: 'Cash-on-delivery fee' }),
    position: field.int(transports.position, { create: 'optional', sort: true }),
    active: field.bool(transports.active, { create: 'optional', filter: 'eq' }),
    ...field.timestamps(transports),
  },
  read: { access: 'public' },
  write: { roles: [Role.Admin] },
  storefront: () => eq(transports.active, true),
  defaultSort: 'position',
  publicCache: true,
  countCache: true,
});
