import { Role } from '../../src/http/roles.ts';

/**
 * Who reads what in the back office (docs/security.md): the admin roles that may read each
 * personal or commercial list. Every other admin role gets 403 there; a Superuser passes.
 * Catalog, CMS, shipping and gift data are read by every admin role.
 */
export const BACKEND_READERS: Record<string, number[]> = {
  '/rest/customer/customer': [Role.Admin, Role.Orders, Role.Marketing],
  '/rest/customer/address': [Role.Admin, Role.Orders, Role.Marketing],
  '/rest/customer/wishlist': [Role.Admin, Role.Marketing],
  '/rest/checkout/coupon': [Role.Admin, Role.Marketing],
  '/rest/order/order': [Role.Admin, Role.Orders],
  '/rest/loyalty/ledger': [Role.Admin, Role.Marketing],
  '/rest/system/setting': [Role.Developer, Role.Admin],
  '/rest/system/admin-user': [Role.Admin],
};

export const READ_BY_EVERY_ADMIN = [
  '/rest/product/product',
  '/rest/product/category',
  '/rest/cms/reel',
  '/rest/cms/slider-group',
  '/rest/cms/slider',
  '/rest/checkout/transport',
  '/rest/checkout/gift',
];

/** The admin roles other than Superuser. */
export const ADMIN_ROLES = [
  Role.Developer,
  Role.Admin,
  Role.CMS,
  Role.Products,
  Role.Orders,
  Role.Reporting,
  Role.Marketing,
  Role.Media,
];
