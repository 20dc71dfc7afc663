// Every table of the service, for drizzle-orm queries and drizzle-kit migrations.
export * from '../modules/auth/auth.tables.ts';
export * from '../modules/auth/account-tokens.tables.ts';
export * from '../modules/cart/cart.tables.ts';
export * from '../modules/catalog/catalog.tables.ts';
export * from '../modules/catalog/promotions.tables.ts';
export * from '../modules/catalog/shipping.tables.ts';
export * from '../modules/cms/cms.tables.ts';
export * from '../modules/customers/address.tables.ts';
export * from '../modules/customers/customer.tables.ts';
export * from '../modules/events/outbox.tables.ts';
export * from '../modules/loyalty/loyalty.tables.ts';
export * from '../modules/mail/mail.tables.ts';
export * from '../modules/orders/order.tables.ts';
export * from '../modules/settings/settings.tables.ts';
export * from '../modules/webhooks/webhooks.tables.ts';
export * from '../resources/versions.tables.ts';
