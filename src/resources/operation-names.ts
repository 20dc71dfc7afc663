import type { Resource } from './types.ts';

function pascal(words: string): string {
  return words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

function plural(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/** The operationIds of a resource's routes: listProducts, findProduct, getProduct, createProduct, … */
export function operationIdsOf(resource: Resource) {
  const name = pascal(resource.def.schemaName ?? resource.def.entity);
  return {
    list: `list${plural(name)}`,
    find: `find${name}`,
    get: `get${name}`,
    create: `create${name}`,
    update: `update${name}`,
    delete: `delete${name}`,
  };
}
