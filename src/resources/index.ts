// The resource framework: one definition per entity drives its routes, queries and schemas.
export { type CachePolicy, cachingHook } from './caching.ts';
export { defineResource } from './define.ts';
export { FieldError, field, type FieldOptions, INT32_MAX } from './fields.ts';
export { type FilterOptions, filterable, filterParam, parseBoolean, parseOneOf } from './filters.ts';
export {
  appliedPageSize,
  DEFAULT_PAGE_SIZE,
  LIMIT_MAX,
  limitAsSent,
  PAGE_MAX,
  PageQuery,
  paginationOf,
} from './pagination.ts';
export { cacheDeclarationOf } from './cache-declaration.ts';
export { type CacheDeclaration, cacheKey, installResponseCache } from './response-cache.ts';
export { answerHitsEarly, type ObserveRequest } from './early-hits.ts';
export { planList, planOf, planOne } from './list-query.ts';
export {
  itemEntity,
  listEntities,
  readVersions,
  settledLocale,
  showEntity,
  VersionedCache,
} from './read.service.ts';
export { type Row, versionsJson } from './repo.ts';
export { registerResource, requestContext } from './routes.ts';
export { createBody, Id, IdParams, itemSchema, querySchema } from './schemas.ts';
export {
  CUSTOMER_ID,
  filterConditions,
  localizedValue,
  searchCondition,
  visibility,
} from './sql.ts';
export {
  checkTranslationsOf,
  holdsUnservedTexts,
  LOCALE_CODE,
  preferredLocale,
  servedLocales,
  servedTranslations,
} from './translations.ts';
export * from './types.ts';
export type { ListVariant } from './list-variant.ts';
export {
  auditCreates,
  createColumns,
  createEntity,
  createValues,
  deleteEntity,
  updateEntity,
} from './write.service.ts';
export { KeptCopy, keptValues, keptVersionsJson } from './kept-copy.ts';
export { derivedWhileSteady, runningAt, type Windowed, windowed, windowJson } from './windows.ts';
