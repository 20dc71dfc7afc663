import { Box } from '@mui/material';
import type { ReactElement } from 'react';
import {
  AutocompleteInput,
  BooleanInput,
  Create,
  Edit,
  List,
  NumberInput,
  ReferenceInput,
  SearchInput,
  SimpleForm,
  Link,
  useListContext,
} from 'react-admin';
import { TranslatableInputs, type TranslatedField } from './translations.tsx';

const categoryFilters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="parentId" source="parentId" reference="categories" label="Parent">
    <AutocompleteInput optionText="name" label="Parent" />
  </ReferenceInput>,
];

interface CategoryRow {
  id: number;
  name: string;
  parentId: number | null;
  position: number;
  active: boolean;
}

/** The categories as a tree (parentId); a category whose parent is filtered out shows as a root. */
function CategoryTree() {
  const { data = [], isPending } = useListContext<CategoryRow>();
  if (isPending) return null;
  const ids = new Set(data.map((category) => category.id));
  const childrenOf = new Map<number | null, CategoryRow[]>();
  for (const category of data) {
    const parent = category.parentId !== null && ids.has(category.parentId) ? category.parentId : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), category]);
  }
  const branch = (parent: number | null): ReactElement | null => {
    const children = childrenOf.get(parent);
    if (!children?.length) return null;
    return (
      <Box component="ul" sx={{ listStyle: 'none', pl: parent === null ? 2 : 3, my: 0.5 }}>
        {children.map((category) => (
          <li key={category.id}>
            <Link to={`/categories/${category.id}`}>{category.name}</Link>
            {category.active ? '' : ' (inactive)'}
            {branch(category.id)}
          </li>
        ))}
      </Box>
    );
  };
  return (
    <Box component="nav" aria-label="Category tree" sx={{ py: 1 }}>
      {branch(null)}
    </Box>
  );
}

export function CategoryList() {
  return (
    <List
      filters={categoryFilters}
      sort={{ field: 'position', order: 'ASC' }}
      perPage={1000}
      pagination={false}
    >
      <CategoryTree />
    </List>
  );
}

/** The category's texts per locale (the API's translatable fields). */
const CATEGORY_TEXTS: TranslatedField[] = [
  { source: 'name', label: 'Name', required: true },
  { source: 'slug', label: 'Slug' },
  { source: 'description', label: 'Description', multiline: true },
];

function CategoryForm() {
  return (
    <SimpleForm>
      <TranslatableInputs fields={CATEGORY_TEXTS} />
      <ReferenceInput source="parentId" reference="categories">
        <AutocompleteInput optionText="name" label="Parent" />
      </ReferenceInput>
      <NumberInput source="position" step={1} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const CategoryEdit = () => (
  <Edit mutationMode="pessimistic">
    <CategoryForm />
  </Edit>
);
export const CategoryCreate = () => (
  <Create>
    <CategoryForm />
  </Create>
);
