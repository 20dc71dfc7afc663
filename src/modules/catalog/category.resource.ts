import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import { defineResource, field, type Resource } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { categories } from './catalog.tables.ts';
import { ancestorsPath, CategoryPathItem } from './category-tree.ts';
import { categoryHooks } from './category.service.ts';

/** Categories form a tree through parentId (null: a root). */
export const categoryResource: Resource = defineResource({
  domain: 'product',
  entity: 'category',
  description: 'categories',
  table: categories,
  translations: categories.translations,
  fields: {
    id: field.id(categories.id),
    parentId: field.int(categories.parentId, { create: 'optional', nullable: true, filter: 'eq', min: 1 }),
    name: field.text(categories.name, {
      create: 'required',
      translatable: true,
      sort: true,
      search: true,
      minLength: 1,
      maxLength: 200,
    }),
    slug: field.text(categories.slug, {
      create: 'optional',
      filter: 'eq',
      maxLength: 160,
      pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
      translatable: true,
      unique: true,
    }),
    description: field.text(categories.description, {
      create: 'optional',
      translatable: true,
      maxLength: 20_000,
    }),
    position: field.int(categories.position, { create: 'optional', sort: true }),
    active: field.bool(categories.active, { create: 'optional', filter: 'eq' }),
    path: field.computed(Type.Array(CategoryPathItem), ancestorsPath, {
      description: 'The ancestors from the root, for breadcrumbs (the category itself not included)',
    }),
    createdAt: field.timestamp(categories.createdAt, { read: 'backend', sort: true }),
    updatedAt: field.timestamp(categories.updatedAt, { read: 'backend' }),
  },
  relations: {
    parent: { kind: 'one', target: () => categoryResource, key: 'parentId', read: 'public' },
    children: { kind: 'many', target: () => categoryResource, key: 'parentId', read: 'public' },
  },
  read: { access: 'public' },
  write: { roles: [Role.Products] },
  storefront: () => eq(categories.active, true),
  defaultSort: 'position',
  publicCache: true,
  countCache: true,
  hooks: categoryHooks,
});
