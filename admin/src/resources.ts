// The back office's resources: which REST path each one reads, and which admin roles may read and
// write it (docs/security.md, "Who reads what in the back office"). The menu and the routes follow
// from this table; the API refuses the rest anyway. Superuser (1) passes every check.

export const ROLES = [
  { id: 1, name: 'Superuser' },
  { id: 2, name: 'Developer' },
  { id: 3, name: 'Admin' },
  { id: 4, name: 'CMS' },
  { id: 5, name: 'Products' },
  { id: 6, name: 'Orders' },
  { id: 7, name: 'Reporting' },
  { id: 8, name: 'Marketing' },
  { id: 9, name: 'Media' },
] as const;

const SUPERUSER = 1;

export interface ResourceAccess {
  /** `/rest/{domain}/{entity}` without the prefix. */
  path: string;
  /** Roles that read it; `'any'` is every admin token. */
  read: readonly number[] | 'any';
  /** Roles that create, change and delete it. */
  write: readonly number[];
  /** The list supports `sort=` (resources of the framework do; own routes may not). */
  sortable: boolean;
  /** The list takes `id=1,2,3` (getMany in one call); otherwise one call per id. */
  idFilter: boolean;
  /** The field that identifies a record, when it is not `id`. */
  idField?: string;
  /** A sub-collection listed under its parent (`system/webhook/{id}/deliveries`): the parent's field and path. */
  nested?: { target: string; path: (parentId: unknown) => string };
}

export const RESOURCES: Record<string, ResourceAccess> = {
  products: { path: 'product/product', read: 'any', write: [5], sortable: true, idFilter: true },
  categories: { path: 'product/category', read: 'any', write: [5], sortable: true, idFilter: true },
  orders: { path: 'order/order', read: [3, 6], write: [6], sortable: false, idFilter: false },
  customers: { path: 'customer/customer', read: [3, 6, 8], write: [3], sortable: true, idFilter: true },
  addresses: { path: 'customer/address', read: [3, 6, 8], write: [3], sortable: true, idFilter: true },
  coupons: { path: 'checkout/coupon', read: [3, 8], write: [8], sortable: true, idFilter: true },
  gifts: { path: 'checkout/gift', read: 'any', write: [8], sortable: true, idFilter: true },
  transports: { path: 'checkout/transport', read: 'any', write: [3], sortable: true, idFilter: true },
  reels: { path: 'cms/reel', read: 'any', write: [4, 9], sortable: true, idFilter: true },
  sliderGroups: { path: 'cms/slider-group', read: 'any', write: [9], sortable: true, idFilter: true },
  sliders: { path: 'cms/slider', read: 'any', write: [9], sortable: true, idFilter: true },
  settings: {
    path: 'system/setting',
    read: [2, 3],
    write: [2, 3],
    sortable: false,
    idFilter: false,
    idField: 'key',
  },
  adminUsers: { path: 'system/admin-user', read: [3], write: [3], sortable: false, idFilter: false },
  webhooks: { path: 'system/webhook', read: [2, 3], write: [2, 3], sortable: false, idFilter: false },
  webhookDeliveries: {
    path: 'system/webhook',
    read: [2, 3],
    write: [2, 3],
    sortable: false,
    idFilter: false,
    nested: { target: 'webhookId', path: (webhookId) => `system/webhook/${webhookId}/deliveries` },
  },
  mail: { path: 'system/mail', read: [2, 3], write: [], sortable: false, idFilter: false },
  variants: { path: 'product/variant', read: 'any', write: [5], sortable: true, idFilter: true },
  reports: { path: 'report/sales', read: [3, 7], write: [], sortable: false, idFilter: false },
  audit: { path: 'system/audit', read: [3], write: [], sortable: false, idFilter: false },
  loyaltyLedger: { path: 'loyalty/ledger', read: [3, 8], write: [3, 8], sortable: false, idFilter: false },
};

const WRITE_ACTIONS = new Set(['create', 'edit', 'delete']);

/** Whether an admin holding `roles` may do `action` ('list', 'show', 'edit', …) on `resource`. */
export function canAccess(roles: readonly number[], resource: string, action: string): boolean {
  if (roles.includes(SUPERUSER)) return true;
  const access = RESOURCES[resource];
  if (!access) return true;
  const allowed = WRITE_ACTIONS.has(action) ? access.write : access.read;
  return allowed === 'any' || allowed.some((role) => roles.includes(role));
}
