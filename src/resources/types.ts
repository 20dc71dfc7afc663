import type { TSchema } from '@sinclair/typebox';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Caller } from '../http/access.ts';
import type { LocaleRequest } from '../http/locale.ts';
import type { RoleId } from '../http/roles.ts';
import type { KeptCopy } from './kept-copy.ts';
import type { ListVariant } from './list-variant.ts';

/** Who may read a field or a relation: the lowest scope (public, customer, backend); higher scopes see it too. */
export type Scope = 'public' | 'customer' | 'backend';
export const SCOPES: readonly Scope[] = ['public', 'customer', 'backend'];
const RANK: Record<Scope, number> = { public: 0, customer: 1, backend: 2 };

export function canRead(scope: Scope, lowest: Scope): boolean {
  return RANK[scope] >= RANK[lowest];
}

export function scopeOf(caller: Caller): Scope {
  return caller.kind === 'admin' ? 'backend' : caller.kind === 'customer' ? 'customer' : 'public';
}

/** The live settings as the resource layer sees them: values by key (database > configuration > default). */
export type Settings = Readonly<Record<string, unknown>>;

/** How the resource layer reads the settings; the settings module provides it, the app passes it in. */
export interface SettingsSource {
  /**
   * One setting's effective value as SQL, so a statement applies the live value itself (the stored
   * one when it is valid, else the configured or default value, bound into the statement):
   * `positiveInteger` or `boolean`.
   */
  valueSql(key: string, kind: 'positiveInteger' | 'boolean'): SQL;
  /** Reads them (one small query). */
  read(db: Db): Promise<Settings>;
  /** The stored values of these keys as one JSON object (key → value), inside another statement. */
  storedSql(keys: readonly string[]): SQL;
  /** The effective settings from values storedSql read (checked; configuration and defaults for the rest). */
  fromStored(stored: Record<string, unknown>): Settings;
}

/**
 * A back-office write of a resource as the audit log keeps it: the written fields' values as the
 * API shows them, before and after (null: no row before a create, none after a delete).
 */
export interface AuditedWrite {
  /** The admin token's `sub`. */
  actor: string;
  action: Operation;
  entity: string;
  entityId: number;
  before: Values | null;
  after: Values | null;
}

/** Keeps a write in the audit log, in the write's transaction `db`; the audit module provides it. */
export type RecordWrite = (db: Db, writes: AuditedWrite | readonly AuditedWrite[]) => Promise<void>;

/** The request as the resource code sees it: no Fastify types. */
export interface RequestContext {
  db: Db;
  config: Config;
  caller: Caller;
  settingsSource: SettingsSource;
  /** The locale the request asks for (src/http/locale.ts); absent: the default locale. */
  locale?: LocaleRequest;
}

/** A request that may write: how an admin's write is audited comes with it (passed in by the app). */
export interface WriteRequestContext extends RequestContext {
  recordWrite: RecordWrite;
}

/** The name of a boolean setting (a feature switch). */
export type BooleanSetting = string;

export interface ReadContext extends RequestContext {
  scope: Scope;
  /**
   * The locale whose translations the read renders (docs/translations.md), each translatable field
   * falling back to its own value; null: the fields' own values (the default locale).
   */
  translateTo: string | null;
  /**
   * The locales the shop serves, as the read assumes them (read.service.ts checks the assumption
   * against the settings read with the page): a search over translations matches these only.
   * null: any stored text (a resource without translations).
   */
  servedLocales: readonly string[] | null;
  /**
   * A value the whole statement computes once (a sub-select every row's field would otherwise set
   * up again on each execution), named `name`: answers what a field refers to it by. In the page
   * statement it is a column of the statement's one row (repo.ts); elsewhere the value itself.
   */
  shared?(name: string, value: SQL): SQL;
  /**
   * The kept values the read's statement takes as parameters (ResourceDef.keptValues): a field
   * that finds its declaration here reads them by placeholder; absent (a resource embedded in
   * another's read, a statement of a module's own), it reads what it needs in SQL.
   */
  keptValues?: KeptValues;
  /** The part of the statement's text the kept values decide (KeptParameters.variant). */
  keptVariant?: string;
}

/** A read statement's parameters from a kept copy. */
export interface KeptParameters {
  /** Placeholder name → value. */
  values: Record<string, unknown>;
  /**
   * What the values decide of the statement's text, read by the fields as ReadContext.keptVariant
   * (one prepared statement per variant); '' for the usual one.
   */
  variant: string;
}

/**
 * Parameters of a resource's read statement computed in the service from a kept copy (kept-copy.ts),
 * so that each row's fields use them instead of reading and evaluating rows of their own (the
 * catalog's running sales: docs/performance.md, "Kept copies"). The read runs with the copy last
 * kept and runs again with a fresh one when the statement's versions show it was not of them.
 */
export interface KeptValues {
  copy: KeptCopy<unknown, unknown>;
  /** The parameters from the copy at the read's time (made by kept-copy.ts keptValues). */
  values(copy: unknown, now: Date): KeptParameters;
  /** The scopes whose reads take them (the back office reads stored prices). */
  scopes: readonly Scope[];
}

/** The locale a read renders and the locales it may match texts in (ReadContext). */
export interface ReadLocale {
  translateTo: string | null;
  servedLocales: readonly string[] | null;
}

export interface WriteContext extends WriteRequestContext {
  /** Reads the settings (once) when a hook needs a default from them. */
  settings(): Promise<Settings>;
}

/** How a field's value travels: database ↔ JSON, query string → database. */
export interface Codec {
  /** JSON schema of the value in answers (null is added for nullable fields). */
  output: TSchema;
  /** JSON schema accepted in writes. */
  input: TSchema;
  fromDb?: (value: unknown) => unknown;
  /** How the column is selected when not as itself (arrays travel as JSON text: parsing it is far cheaper). */
  select?: (column: PgColumn) => SQL;
  /** How the column is rendered inside a JSON row: as the answer's JSON value (fromDb is not applied). */
  json?: (column: PgColumn | SQL) => SQL;
  /** JSON → database value; throws FieldError. */
  toDb?: (value: unknown) => unknown;
  /** A query-string value → database value for filters; throws FieldError. */
  parse: (text: string) => unknown;
  /** gte/lte/gt/lt make sense (numbers, money, dates). */
  rangeable: boolean;
}

export type FilterMode = 'eq' | 'range' | 'both';

export interface FieldDef {
  codec: Codec;
  /** The stored column; absent for a computed field. */
  column?: PgColumn;
  /** A computed, read-only value, evaluated in the page query (never one query per row). */
  expr?: (ctx: ReadContext) => SQL;
  /**
   * How a stored column is read in this context when not as stored (a price a running sale lowers
   * for shoppers); filters, sorting and writes keep the stored column.
   */
  readAs?: (column: PgColumn, ctx: ReadContext) => SQL;
  read: Scope;
  /** Readable in this scope only (a customer-specific field means nothing to an admin). */
  onlyScope?: Scope;
  nullable: boolean;
  /** Writable on create, and whether the create must carry it. */
  create?: 'required' | 'optional';
  update: boolean;
  /** 'backend': only admins write it, even on a resource customers write (their own rows). */
  writeScope: 'owner' | 'backend';
  filter?: FilterMode;
  sort: boolean;
  search: boolean;
  /** Changes outside the framework without bumping the table version (e.g. stock): totals filtered by it are not cached. */
  volatile?: boolean;
  /** The boolean setting that shows this field: while it is off the field reads null. */
  shownWhen?: BooleanSetting;
  /** Has a text per locale, kept in the resource's `translations` column (docs/translations.md). */
  translatable?: boolean;
  /** Unique among the entity's rows: a translatable one within each locale (409 otherwise). */
  unique?: boolean;
  description?: string;
  /**
   * The filter's own condition instead of `value = column` (categoryId matching a whole subtree,
   * option.<Name> reading the variants): see src/resources/filters.ts.
   */
  where?: FilterWhere;
  /** A query parameter only, never a field of the answer (onSale, option.<Name>). */
  filterOnly?: boolean;
  /** Parameters `<name>.<arg>` (option.Size=M): the arg reaches `where` as its own placeholder. */
  prefixed?: boolean;
  /** Other tables a filter on this field reads: a cached total follows their versions too. */
  dependsOn?: PgTable[];
}

/** A filter's SQL from the placeholders of its value (an array for `in`) and its prefix argument. */
export type FilterWhere = (ctx: ReadContext, op: 'eq' | 'in', value: SQL, arg: SQL) => SQL;

/**
 * q as a search reads it: the statement shape it needs (e.g. its words) and its placeholder values
 * (named `q…`); `once`: the shape holds q itself, so its statements run unnamed and the server keeps
 * no plan per text of q (src/db/statements.ts).
 */
export interface ParsedSearch {
  shape: string;
  values: Record<string, unknown>;
  once?: boolean;
}

/**
 * A resource's own text search (products: every word, accents folded, a typo tolerated), instead
 * of the generic ILIKE over the searchable fields. One text of q gives one shape and its values.
 */
export interface SearchDef {
  /** q read once per request (the list plan keeps it); `where` and `rank` take its shape. */
  parse(q: string): ParsedSearch;
  /**
   * The condition of a shape, with the placeholders `parse` named; `servedLocales`: the locales
   * whose texts may match (ReadContext), null for any.
   */
  where(shape: string, servedLocales: readonly string[] | null): SQL;
  /**
   * Relevance, higher first: the order when q is given without sort, or with sort=relevance.
   * `translated` is a translatable field's value in the read's locale, undefined in the default one.
   */
  rank(shape: string, translated: (field: string) => SQL | undefined): SQL;
}

export interface RelationDef {
  /** one: this row's `key` field → target id; many: target's `key` field → this id; ids: this row's id array. */
  kind: 'one' | 'many' | 'ids';
  target: () => Resource;
  key: string;
  read: Scope;
  /** many: bound of related rows loaded per query. */
  limit?: number;
}

export type Operation = 'create' | 'update' | 'delete';
export type Values = Record<string, unknown>;

export interface ResourceHooks {
  /** Inside the write transaction, before the row is written: derive and default values. */
  beforeWrite?(ctx: WriteContext, values: Values, op: 'create' | 'update', id?: number): Promise<void>;
  /** Inside the write transaction, after the row is written: history, events. */
  afterWrite?(ctx: WriteContext, id: number, values: Values, op: 'create' | 'update'): Promise<void>;
}

export interface ResourceDef {
  domain: string;
  entity: string;
  /**
   * The name clients know one entity by (its schema in the document, its operationIds) when the
   * entity in PascalCase does not read as the thing itself (`wishlist` → `WishlistEntry`).
   */
  schemaName?: string;
  description?: string;
  table: PgTable;
  fields: Record<string, FieldDef>;
  relations?: Record<string, RelationDef>;
  /** public: everyone; owner: customers (their own rows) and admins; backend: admins only. */
  read: { access: 'public' | 'owner' | 'backend'; roles?: RoleId[] };
  /** Back-office writes; owner: customers also write their own rows (the owner comes from the token). */
  write?: { roles: RoleId[]; owner?: boolean; operations?: Operation[] };
  /** The field holding the owning customer's id; customers only ever reach rows where it is theirs. */
  owner?: string;
  /** What guests and customers may see at all (e.g. active rows only). */
  storefront?: (ctx: ReadContext) => SQL;
  /** Default order, e.g. 'position,id'; id is always appended as the tie-breaker. */
  defaultSort?: string;
  /** Guest answers may be cached publicly (catalog and CMS reads). */
  publicCache?: boolean;
  /** A version trigger covers the table (see versions.tables.ts): list totals may be cached. */
  countCache?: boolean;
  /**
   * The jsonb column holding the translatable fields' texts per locale (`{"el": {"name": …}}`);
   * required when a field is `translatable` (docs/translations.md).
   */
  translations?: PgColumn;
  /** Text search of its own (q); without it q is ILIKE over the searchable fields. */
  search?: SearchDef;
  hooks?: ResourceHooks;
  /**
   * Create-body members that are no field (a product's `variants`): validated by the create
   * schema, handed to the hooks in `values`, never written as columns. A function, so a schema
   * may come from another resource's definition.
   */
  createExtras?: () => Record<string, TSchema>;
  /** A list of its own for some query parameters (transports for one address). */
  listVariant?: ListVariant;
  /** Parameters its read statement takes from a kept copy (KeptValues). */
  keptValues?: KeptValues;
}

export interface FieldInfo extends FieldDef {
  name: string;
  /** The column's key in the drizzle table (for insert/update). */
  columnKey?: string;
}

export interface Resource {
  def: ResourceDef;
  name: string;
  path: string;
  fields: FieldInfo[];
  field: Map<string, FieldInfo>;
  /** Fields each scope may read, in definition order. */
  readable: Record<Scope, FieldInfo[]>;
  idColumn: PgColumn;
  ownerField?: FieldInfo;
  defaultSort: { field: FieldInfo; desc: boolean }[];
  operations: Operation[];
}

export const RANGE_OPS = ['gte', 'lte', 'gt', 'lt'] as const;
export type RangeOp = (typeof RANGE_OPS)[number];
export type FilterOp = 'eq' | 'in' | 'null' | RangeOp;

export interface Filter {
  field: FieldInfo;
  op: FilterOp;
  value: unknown;
  /** The `<arg>` of a prefixed parameter (`option.Size` → `Size`). */
  arg?: string;
}

export interface SortTerm {
  field: FieldInfo;
  desc: boolean;
}

/** Relations to embed: name → nested relations of the target. */
export type WithTree = Map<string, WithTree>;

export interface ListQuery {
  page: number;
  /** As sent; 0 or absent means the default. */
  limit: number;
  filters: Filter[];
  sort: SortTerm[];
  search: string | null;
  /** Order by the search's relevance first: q given without sort, or sort=relevance. */
  relevance: boolean;
  with: WithTree;
}

/**
 * One read as every later step takes it, made once per request: the parsed query, q as the
 * resource's search read it, the statement's shape (everything that changes its SQL text, nothing
 * that only changes values) and its placeholder values (filter i is `f<i>`, its prefix argument
 * `f<i>a`, the caller `customerId`, the search `q…`). Statements are built from a plan only when
 * their shape is new (repo.ts); a request binds `values`.
 */
export interface ListPlan {
  resource: Resource;
  ctx: ReadContext;
  query: ListQuery;
  search: ParsedSearch | null;
  shape: string;
  values: Record<string, unknown>;
  /** The statements run unnamed: the shape holds q itself (see ParsedSearch). */
  once: boolean;
  /** The page size is a storefront caller's own limit, clamped to the live ceiling by the statement. */
  clamped: boolean;
  /** The key of the cached total (count-cache.ts), or null when it is always counted. */
  countKey: string | null;
}
