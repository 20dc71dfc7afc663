import { eq } from 'drizzle-orm';
import { AppError } from '../../http/errors.ts';
import { defineResource, field, type Resource, type Values } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { productResource } from '../catalog/product.resource.ts';
import { reels, sliderGroups, sliders } from './cms.tables.ts';
import { mediaField, withMedia } from '../media/media-field.ts';

/** A slide shows an image: its imageUrl, given or taken from its media. */
async function requireSlideImage(_ctx: unknown, values: Values, op: 'create' | 'update'): Promise<void> {
  if (op === 'create' && values.imageUrl === undefined) {
    throw new AppError('VALIDATION_FAILED', 'imageUrl is required unless media is given', [
      { field: 'imageUrl', message: 'is required unless media is given' },
    ]);
  }
}

export const reelResource: Resource = defineResource({
  domain: 'cms',
  entity: 'reel',
  description: 'video reels',
  table: reels,
  translations: reels.translations,
  fields: {
    id: field.id(reels.id),
    title: field.text(reels.title, {
      create: 'required',
      translatable: true,
      search: true,
      sort: true,
      minLength: 1,
      maxLength: 200,
    }),
    videoUrl: field.url(reels.videoUrl, { create: 'required' }),
    posterUrl: field.url(reels.posterUrl, { create: 'optional', nullable: true }),
    media: mediaField(reels.media),
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
  hooks: withMedia({ name: 'posterUrl', list: false }),
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
  translations: sliders.translations,
  fields: {
    id: field.id(sliders.id),
    groupId: field.int(sliders.groupId, { create: 'required', filter: 'eq', min: 1 }),
    title: field.text(sliders.title, { create: 'required', translatable: true, maxLength: 200 }),
    subtitle: field.text(sliders.subtitle, {
      create: 'optional',
      nullable: true,
      translatable: true,
      maxLength: 500,
    }),
    imageUrl: field.url(sliders.imageUrl, {
      create: 'optional',
      description: 'Required unless media is given: then the first image’s URL by default',
    }),
    media: mediaField(sliders.media),
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
  hooks: withMedia({ name: 'imageUrl', list: false }, { beforeWrite: requireSlideImage }),
  storefront: () => eq(sliders.active, true),
  defaultSort: 'position',
  publicCache: true,
  countCache: true,
});
