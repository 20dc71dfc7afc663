import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

/** A database handle; also the type of a transaction, so repositories accept either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
