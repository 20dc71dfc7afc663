import { defineResource, field, type Resource } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { productResource } from '../catalog/product.resource.ts';
import { addresses, wishlistItems } from './address.tables.ts';
import { assertAddressRoom } from './customer-caps.ts';
import { customers } from './customer.tables.ts';

// Customer-owned resources: a customer reaches only their own rows (the owner condition is in
// the SQL), an admin all of them. The password hash is not a field: no scope can ever read it.

const MAX_TEXT = 200;

export const customerResource: Resource = defineResource({
  domain: 'customer',
  entity: 'customer',
  description: 'customers',
  table: customers,
  fields: {
    id: field.id(customers.id),
    email: field.text(customers.email, {
      read: 'customer',
      update: true,
      filter: 'eq',
      search: true,
      sort: true,
      format: 'email',
      maxLength: 254,
    }),
    firstName: field.text(customers.firstName, {
      read: 'customer',
      update: true,
      search: true,
      minLength: 1,
      maxLength: MAX_TEXT,
    }),
    lastName: field.text(customers.lastName, {
      read: 'customer',
      update: true,
      search: true,
      sort: true,
      minLength: 1,
      maxLength: MAX_TEXT,
    }),
    phone: field.text(customers.phone, { read: 'customer', update: true, nullable: true, maxLength: 40 }),
    newsletter: field.bool(customers.newsletter, { read: 'customer', update: true, filter: 'eq' }),
    // Read-only: a balance changes only with a ledger row (orders, POST /rest/loyalty/adjustment).
    loyaltyPoints: field.int(customers.loyaltyPoints, { read: 'customer', filter: 'range', sort: true }),
    active: field.bool(customers.active, { read: 'backend', update: true, filter: 'eq' }),
    createdAt: field.timestamp(customers.createdAt, { read: 'customer', sort: true, filter: 'range' }),
    updatedAt: field.timestamp(customers.updatedAt, { read: 'backend' }),
  },
  relations: {
    addresses: { kind: 'many', target: () => addressResource, key: 'customerId', read: 'customer' },
  },
  // Personal data: only the back-office roles whose work needs it.
  read: { access: 'owner', roles: [Role.Admin, Role.Orders, Role.Marketing] },
  // Customers are created by registration (with a password); the back office edits and removes.
  write: { roles: [Role.Admin], operations: ['update', 'delete'] },
  owner: 'id',
  hooks: {
    async beforeWrite(_ctx, values) {
      if (typeof values.email === 'string') values.email = values.email.trim().toLowerCase();
    },
  },
});

export const addressResource: Resource = defineResource({
  domain: 'customer',
  entity: 'address',
  description: 'addresses',
  table: addresses,
  fields: {
    id: field.id(addresses.id),
    customerId: field.int(addresses.customerId, {
      read: 'customer',
      create: 'required',
      update: false,
      writeScope: 'backend',
      filter: 'eq',
      min: 1,
      description: 'The owner; customers never send it (it comes from the token)',
    }),
    label: field.text(addresses.label, {
      read: 'customer',
      create: 'optional',
      nullable: true,
      maxLength: 60,
    }),
    firstName: field.text(addresses.firstName, {
      read: 'customer',
      create: 'required',
      minLength: 1,
      maxLength: MAX_TEXT,
    }),
    lastName: field.text(addresses.lastName, {
      read: 'customer',
      create: 'required',
      minLength: 1,
      maxLength: MAX_TEXT,
    }),
    company: field.text(addresses.company, {
      read: 'customer',
      create: 'optional',
      nullable: true,
      maxLength: MAX_TEXT,
    }),
    phone: field.text(addresses.phone, {
      read: 'customer',
      create: 'optional',
      nullable: true,
      maxLength: 40,
    }),
    street: field.text(addresses.street, {
      read: 'customer',
      create: 'required',
      minLength: 1,
      maxLength: 300,
    }),
    city: field.text(addresses.city, {
      read: 'customer',
      create: 'required',
      minLength: 1,
      maxLength: MAX_TEXT,
    }),
    countyAlpha: field.text(addresses.countyAlpha, {
      read: 'customer',
      create: 'optional',
      nullable: true,
      maxLength: 10,
    }),
    countryAlpha2: field.text(addresses.countryAlpha2, {
      read: 'customer',
      create: 'required',
      filter: 'eq',
      pattern: '^[A-Z]{2}$',
      maxLength: 2,
    }),
    postalCode: field.text(addresses.postalCode, {
      read: 'customer',
      create: 'required',
      minLength: 1,
      maxLength: 20,
    }),
    isDefault: field.bool(addresses.isDefault, { read: 'customer', create: 'optional', filter: 'eq' }),
    createdAt: field.timestamp(addresses.createdAt, { read: 'customer', sort: true }),
    updatedAt: field.timestamp(addresses.updatedAt, { read: 'backend' }),
  },
  relations: {
    customer: { kind: 'one', target: () => customerResource, key: 'customerId', read: 'backend' },
  },
  read: { access: 'owner', roles: [Role.Admin, Role.Orders, Role.Marketing] },
  write: { roles: [Role.Admin], owner: true },
  owner: 'customerId',
  hooks: {
    // The cap holds whoever creates the address: the customer or an admin for them.
    async beforeWrite(ctx, values, op) {
      if (op === 'create') await assertAddressRoom(ctx.db, values.customerId as number);
    },
  },
});

export const wishlistResource: Resource = defineResource({
  domain: 'customer',
  entity: 'wishlist',
  schemaName: 'WishlistEntry',
  description: 'wishlist entries',
  table: wishlistItems,
  fields: {
    id: field.id(wishlistItems.id),
    customerId: field.int(wishlistItems.customerId, { read: 'customer', filter: 'eq' }),
    productId: field.int(wishlistItems.productId, { read: 'customer', filter: 'eq' }),
    addedAt: field.timestamp(wishlistItems.addedAt, { read: 'customer', sort: true, filter: 'range' }),
  },
  relations: {
    product: { kind: 'one', target: () => productResource, key: 'productId', read: 'customer' },
  },
  read: { access: 'owner', roles: [Role.Admin, Role.Marketing] },
  owner: 'customerId',
  defaultSort: '-addedAt',
});
