// Every table of the service, for drizzle-orm queries and drizzle-kit migrations.
export * from '../modules/auth/auth.tables.ts';
export * from '../modules/customers/customer.tables.ts';
export * from '../modules/events/outbox.tables.ts';
export * from '../modules/settings/settings.tables.ts';
