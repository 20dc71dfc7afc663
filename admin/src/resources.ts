// The back office's resources: which REST path each one reads, and which admin roles may read and
// write it (docs/security.md, "Who reads what in the back office"). The menu and the routes follow
// from this table; the API refuses the rest anyway. Superuser passes every check.
import type { paths } from '../../packages/client/src/index.ts';
import { holdsAnyRole, Role, type RoleId } from './roles.ts';

/** A path of the API document without its `/rest/` prefix: a table entry naming another fails to compile. */
type RestPath = keyof paths extends infer Path ? (Path extends `/rest/${infer Rest}` ? Rest : never) : never;

export interface ResourceAccess {
  /** `/rest/{domain}/{entity}` without the prefix. */
  path: RestPath;
  /** Roles that read it; `'any'` is every admin token. */
  read: readonly RoleId[] | 'any';
  /** Roles that create, change and delete it. */
  write: readonly RoleId[];
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
  products: { path: 'product/product', read: 'any', write: [Role.Products], sortable: true, idFilter: true },
  categories: {
    path: 'product/category',
    read: 'any',
    write: [Role.Products],
    sortable: true,
    idFilter: true,
  },
  orders: {
    path: 'order/order',
    read: [Role.Admin, Role.Orders],
    write: [Role.Orders],
    sortable: false,
    idFilter: false,
  },
  customers: {
    path: 'customer/customer',
    read: [Role.Admin, Role.Orders, Role.Marketing],
    write: [Role.Admin],
    sortable: true,
    idFilter: true,
  },
  addresses: {
    path: 'customer/address',
    read: [Role.Admin, Role.Orders, Role.Marketing],
    write: [Role.Admin],
    sortable: true,
    idFilter: true,
  },
  coupons: {
    path: 'checkout/coupon',
    read: [Role.Admin, Role.Marketing],
    write: [Role.Marketing],
    sortable: true,
    idFilter: true,
  },
  promotions: {
    path: 'checkout/promotion',
    read: [Role.Admin, Role.Marketing],
    write: [Role.Marketing],
    sortable: true,
    idFilter: true,
  },
  gifts: { path: 'checkout/gift', read: 'any', write: [Role.Marketing], sortable: true, idFilter: true },
  transports: {
    path: 'checkout/transport',
    read: 'any',
    write: [Role.Admin],
    sortable: true,
    idFilter: true,
  },
  shippingZones: {
    path: 'checkout/shipping-zone',
    read: 'any',
    write: [Role.Admin],
    sortable: true,
    idFilter: true,
  },
  shippingRates: {
    path: 'checkout/shipping-rate',
    read: 'any',
    write: [Role.Admin],
    sortable: true,
    idFilter: true,
  },
  taxRates: { path: 'checkout/tax-rate', read: 'any', write: [Role.Admin], sortable: true, idFilter: true },
  reels: { path: 'cms/reel', read: 'any', write: [Role.CMS, Role.Media], sortable: true, idFilter: true },
  sliderGroups: {
    path: 'cms/slider-group',
    read: 'any',
    write: [Role.Media],
    sortable: true,
    idFilter: true,
  },
  sliders: { path: 'cms/slider', read: 'any', write: [Role.Media], sortable: true, idFilter: true },
  media: {
    path: 'media/asset',
    read: [Role.Media, Role.Products, Role.CMS],
    write: [Role.Media, Role.Products, Role.CMS],
    sortable: false,
    idFilter: false,
  },
  settings: {
    path: 'system/setting',
    read: [Role.Developer, Role.Admin],
    write: [Role.Developer, Role.Admin],
    sortable: false,
    idFilter: false,
    idField: 'key',
  },
  adminUsers: {
    path: 'system/admin-user',
    read: [Role.Admin],
    write: [Role.Admin],
    sortable: false,
    idFilter: false,
  },
  webhooks: {
    path: 'system/webhook',
    read: [Role.Developer, Role.Admin],
    write: [Role.Developer, Role.Admin],
    sortable: false,
    idFilter: false,
  },
  webhookDeliveries: {
    path: 'system/webhook',
    read: [Role.Developer, Role.Admin],
    write: [Role.Developer, Role.Admin],
    sortable: false,
    idFilter: false,
    nested: { target: 'webhookId', path: (webhookId) => `system/webhook/${webhookId}/deliveries` },
  },
  mail: {
    path: 'system/mail',
    read: [Role.Developer, Role.Admin],
    write: [],
    sortable: false,
    idFilter: false,
  },
  productImport: {
    path: 'product/import',
    read: [Role.Products],
    write: [Role.Products],
    sortable: false,
    idFilter: false,
  },
  variants: { path: 'product/variant', read: 'any', write: [Role.Products], sortable: true, idFilter: true },
  reports: {
    path: 'report/sales',
    read: [Role.Admin, Role.Reporting],
    write: [],
    sortable: false,
    idFilter: false,
  },
  audit: { path: 'system/audit', read: [Role.Admin], write: [], sortable: false, idFilter: false },
  loyaltyLedger: {
    path: 'loyalty/ledger',
    read: [Role.Admin, Role.Marketing],
    write: [Role.Admin, Role.Marketing],
    sortable: false,
    idFilter: false,
  },
};

const WRITE_ACTIONS = new Set(['create', 'edit', 'delete']);

/** Whether an admin holding `roles` may do `action` ('list', 'show', 'edit', …) on `resource`. */
export function canAccess(roles: readonly number[], resource: string, action: string): boolean {
  if (roles.includes(Role.Superuser)) return true;
  const access = RESOURCES[resource];
  if (!access) return true;
  const allowed = WRITE_ACTIONS.has(action) ? access.write : access.read;
  return allowed === 'any' || holdsAnyRole(roles, allowed);
}
