import { Type } from '@sinclair/typebox';
import { Role } from '../../http/roles.ts';
import { defineResource, field, type Resource } from '../../resources/index.ts';
import { TAX_CLASSES } from '../pricing/destination-vat.ts';
import { rateHooks, zoneHooks } from './zones.service.ts';
import { shippingRates, shippingZones, taxRates } from './zones.tables.ts';

// Shipping zones, their rates per transport, and the VAT rates per country (docs/shipping-and-tax.md).

const PostalRule = Type.String({
  minLength: 1,
  maxLength: 23,
  pattern: '^[A-Za-z0-9 ]+(-[A-Za-z0-9 ]+)?$',
  description: 'A prefix (84) or a range of equal lengths (84000-84999)',
});
const PostalRules = Type.Object(
  {
    include: Type.Array(PostalRule, { maxItems: 500 }),
    exclude: Type.Array(PostalRule, { maxItems: 500 }),
  },
  {
    additionalProperties: false,
    description: 'Postal codes the zone holds (include) and leaves out (exclude)',
  },
);

export const shippingZoneResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'shipping-zone',
  schemaName: 'ShippingZone',
  description: 'shipping zones',
  table: shippingZones,
  fields: {
    id: field.id(shippingZones.id),
    name: field.text(shippingZones.name, { create: 'required', sort: true, minLength: 1, maxLength: 200 }),
    countries: field.textArray(shippingZones.countries, {
      create: 'required',
      pattern: '^[A-Za-z]{2}$',
      maxLength: 2,
      maxItems: 250,
      description: 'ISO 3166-1 alpha-2 codes',
    }),
    regions: field.textArray(shippingZones.regions, {
      create: 'optional',
      pattern: '^[A-Za-z0-9-]{1,10}$',
      maxLength: 10,
      maxItems: 200,
      description: "County codes (the address's countyAlpha); empty: whole countries",
    }),
    postalCodes: field.json(shippingZones.postalCodes, PostalRules, { create: 'optional' }),
    priority: field.int(shippingZones.priority, {
      create: 'optional',
      sort: true,
      max: 1_000_000,
      description: 'Among equally specific zones that match, the higher wins',
    }),
    ...field.timestamps(shippingZones),
  },
  read: { access: 'backend' },
  write: { roles: [Role.Admin] },
  hooks: zoneHooks,
});

const WeightBand = Type.Object(
  {
    upToKg: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
    price: Type.Number({ minimum: 0, maximum: 1_000_000 }),
  },
  { additionalProperties: false },
);

export const shippingRateResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'shipping-rate',
  schemaName: 'ShippingRate',
  description: 'shipping rates',
  table: shippingRates,
  fields: {
    id: field.id(shippingRates.id),
    transportId: field.int(shippingRates.transportId, { create: 'required', min: 1, filter: 'eq' }),
    zoneId: field.int(shippingRates.zoneId, { create: 'required', min: 1, filter: 'eq' }),
    price: field.money(shippingRates.price, {
      create: 'required',
      description: 'The price without weight bands',
    }),
    freeShippingThreshold: field.money(shippingRates.freeShippingThreshold, {
      create: 'optional',
      nullable: true,
    }),
    weightBands: field.json(
      shippingRates.weightBands,
      Type.Array(WeightBand, {
        maxItems: 50,
        description: 'Ascending: the first band that holds the parcel gives its price',
      }),
      { create: 'optional' },
    ),
    overweightPricePerKg: field.money(shippingRates.overweightPricePerKg, {
      create: 'optional',
      description: 'Per started kg above the last band',
    }),
    codFee: field.money(shippingRates.codFee, { create: 'optional', description: 'Cash-on-delivery fee' }),
    active: field.bool(shippingRates.active, { create: 'optional', filter: 'eq' }),
    ...field.timestamps(shippingRates),
  },
  read: { access: 'backend' },
  write: { roles: [Role.Admin] },
  hooks: rateHooks,
});

export const taxRateResource: Resource = defineResource({
  domain: 'checkout',
  entity: 'tax-rate',
  schemaName: 'TaxRate',
  description: 'tax rates',
  table: taxRates,
  fields: {
    id: field.id(taxRates.id),
    countryAlpha2: field.text(taxRates.countryAlpha2, {
      create: 'required',
      pattern: '^[A-Z]{2}$',
      maxLength: 2,
      filter: 'eq',
      sort: true,
    }),
    taxClass: field.enum(taxRates.taxClass, TAX_CLASSES, { create: 'required', filter: 'eq' }),
    rate: field.decimal(taxRates.rate, { create: 'required', max: 100, description: 'Percent' }),
    ...field.timestamps(taxRates),
  },
  read: { access: 'backend' },
  write: { roles: [Role.Admin] },
});
