import { eq } from 'drizzle-orm';
import { defineResource, field, type Resource } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { productResource } from '../catalog/product.resource.ts';
import { reels, sliderGroups, sliders } from './cms.tables.ts';

export const reelResource: Resource = defineResource({
  domain: 'cms',
  entity: 'reel',
  description: 'video reels',
  table: reels,
  fields: {
    id: field.id(reels.id),
    title: field.text(reels.title, {
      create: 'required',
      search: true,
      sort: true,
      minLength: 1,
      maxLength: 200,
    }),
    videoUrl: field.url(reels.videoUrl, { create: 'required' }),
    posterUrl: field.url(reels.posterUrl, { create: 'optional', nullable: true }),
    productIds: field.intArray(reels.productIds, { create: 'optional', maxItems: 50 }),
    position: field.int(reels.position, { create: 'optional', sort: true }),
    active: field.bool(reels.active, { create: 'optional', filter: 'eq' }),
    createdAt: field.timestamp(reels.createdAt, { read: 'backend', sort: true }),
    updatedAt: field.timestamp(reels.updatedAt, { read: 'backend' }),
  },
  relations: {
    products: { kind: 'ids', target: () => productResource, key: 'productIds', read: 'public' },
  },
  read: { access: 'public' },
  write: { roles: [Role.Media, Role.CMS] },
  storefront: () => eq(reels.active, true),
  defaultSort: 'position',
  publicCache: true,
  countCache: true,
});

export const sliderGroupResource: Resource = defineResource({
  domain: 'cms',
  entity: 'slider-group',
  description: 'slider groups',
  table: sliderGroups,
  fields: {
    id: field.id(sliderGroups.id),
    name: field.text(sliderGroups.name, { create: 'required', sort: true, minLength: 1, maxLength: 200 }),
    code: field.text(sliderGroups.code, {
      create: 'required',
      filter: 'eq',
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
    }),
    active: field.bool(sliderGroups.active, { create: 'optional', filter: 'eq' }),
    createdAt: field.timestamp(sliderGroups.createdAt, { read: 'backend' }),
    updatedAt: field.timestamp(sliderGroups.updatedAt, { read: 'backend' }),
  },
  relations: {
    sliders: { kind: 'many', target: () => sliderResource, key: 'groupId', read: 'public' },
  },
  read: { access: 'public' },
  write: { roles: [Role.Media] },
  storefront: () => eq(sliderGroups.active, true),
  publicCache: true,
  countCache: true,
});

export const sliderResource: Resource = defineResource({
  domain: 'cms',
  entity: 'slider',
  description: 'sliders',
  table: sliders,
  fields: {
    id: field.id(sliders.id),
    groupId: field.int(sliders.groupId, { create: 'required', filter: 'eq', min: 1 }),
    title: field.text(sliders.title, { create: 'required', maxLength: 200 }),
    subtitle: field.text(sliders.subtitle, { create: 'optional', nullable: true, maxLength: 500 }),
    imageUrl: field.url(sliders.imageUrl, { create: 'required' }),
    linkUrl: field.url(sliders.linkUrl, { create: 'optional', nullable: true }),
    position: field.int(sliders.position, { create: 'optional', sort: true }),
    active: field.bool(sliders.active, { create: 'optional', filter: 'eq' }),
    createdAt: field.timestamp(sliders.createdAt, { read: 'backend' }),
    updatedAt: field.timestamp(sliders.updatedAt, { read: 'backend' }),
  },
  relations: {
    group: { kind: 'one', target: () => sliderGroupResource, key: 'groupId', read: 'public' },
  },
  read: { access: 'public' },
  write: { roles: [Role.Media] },
  storefront: () => eq(sliders.active, true),
  defaultSort: 'position',
  publicCache: true,
  countCache: true,
});
