import { Box, Typography } from '@mui/material';
import {
  ArrayInput,
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Button,
  Create,
  CreateButton,
  Datagrid,
  Edit,
  FilterButton,
  FormDataConsumer,
  FunctionField,
  Link,
  List,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  required,
  SearchInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextField,
  TextInput,
  TopToolbar,
  useRecordContext,
} from 'react-admin';
import { ExportProductsButton } from './catalog-import.tsx';
import { ChangeHistory } from './change-history.tsx';
import { MediaInput } from './media.tsx';
import {
  MissingTranslationInput,
  MissingTranslations,
  TranslatableInputs,
  type TranslatedField,
} from './translations.tsx';

const productFilters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search name, SKU, description" />,
  <ReferenceInput key="categoryId" source="categoryId" reference="categories" label="Category">
    <AutocompleteInput optionText="name" label="Category" />
  </ReferenceInput>,
  <TextInput key="brand" source="brand" label="Brand" />,
  <NullableBooleanInput key="active" source="active" label="Active" />,
  <NumberInput key="price_gte" source="price_gte" label="Price from" />,
  <NumberInput key="price_lte" source="price_lte" label="Price up to" />,
  <NumberInput key="stockQty_lte" source="stockQty_lte" label="Stock at most" />,
  <MissingTranslationInput key="missingTranslation" source="missingTranslation" label="Missing translation" />,
];

/** The product's texts per locale (the API's translatable fields). */
const PRODUCT_TEXTS: TranslatedField[] = [
  { source: 'name', label: 'Name', required: true },
  { source: 'slug', label: 'Slug' },
  { source: 'description', label: 'Description', multiline: true },
  { source: 'options', label: 'Options', options: true },
];

/** The list's actions: its export is the import's CSV of the current filters (docs/import-export.md). */
function ProductListActions() {
  return (
    <TopToolbar>
      <FilterButton />
      <CreateButton />
      <ExportProductsButton />
      <Button label="Import CSV" component={Link} to="/productImport" />
    </TopToolbar>
  );
}

export function ProductList() {
  return (
    <List
      filters={productFilters}
      sort={{ field: 'id', order: 'DESC' }}
      perPage={25}
      actions={<ProductListActions />}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="sku" label="SKU" />
        <TextField source="name" />
        <FunctionField
          label="Translations missing"
          sortable={false}
          render={(record: Record<string, unknown>) => <MissingTranslations record={record} fields={PRODUCT_TEXTS} />}
        />
        <ReferenceField source="categoryId" reference="categories" label="Category" sortable={false} />
        <NumberField source="price" options={{ minimumFractionDigits: 2 }} />
        <NumberField source="salePrice" label="On sale at" options={{ minimumFractionDigits: 2 }} emptyText="—" sortable={false} />
        <NumberField source="stockQty" label="Stock" sortable={false} />
        <BooleanField source="active" sortable={false} />
      </Datagrid>
    </List>
  );
}

/** Image URLs are edited one per line. */
export const imagesFormat = (urls: unknown) => (Array.isArray(urls) ? urls.join('\n') : '');
export const imagesParse = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** An option's values are edited as a comma-separated list. */
const valuesFormat = (values: unknown) => (Array.isArray(values) ? values.join(', ') : '');
const valuesParse = (text: string) =>
  text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);

export interface DeclaredOption {
  name: string;
  values: string[];
}

/** The options a form holds so far, complete ones only (a row being typed has no name yet). */
export const declaredOptions = (options: unknown): DeclaredOption[] =>
  Array.isArray(options) ? options.filter(isDeclaredOption) : [];

function isDeclaredOption(option: unknown): option is DeclaredOption {
  return (
    typeof option === 'object' &&
    option !== null &&
    'name' in option &&
    Boolean(option.name) &&
    'values' in option &&
    Array.isArray(option.values)
  );
}

/** One choice per declared option, e.g. Size and Colour (sources relative to the variant). */
export function OptionInputs({ options }: { options: DeclaredOption[] }) {
  return (
    <>
      {options.map((option) => (
        <SelectInput
          key={option.name}
          source={`options.${option.name}`}
          label={option.name}
          validate={required()}
          choices={option.values.map((value) => ({ id: value, name: value }))}
        />
      ))}
    </>
  );
}

function OptionsInput() {
  return (
    <ArrayInput source="options" label="Options (e.g. Size: S, M, L)">
      <SimpleFormIterator inline disableReordering>
        <TextInput source="name" label="Option" validate={required()} />
        <TextInput
          source="values"
          label="Values (comma-separated)"
          validate={required()}
          format={valuesFormat}
          parse={valuesParse}
        />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

function ProductFields() {
  return (
    <>
      <TranslatableInputs fields={PRODUCT_TEXTS} />
      <TextInput source="sku" label="SKU" validate={required()} />
      <NumberInput source="price" label="Price (gross)" validate={required()} min={0} step={0.01} />
      <NumberInput source="salePrice" label="On sale at (a running catalog promotion; read-only)" disabled />
      <NumberInput source="vatRate" label="VAT rate (%)" min={0} />
      <SelectInput
        source="taxClass"
        label="Tax class (destination VAT)"
        choices={['standard', 'reduced', 'super_reduced', 'zero'].map((id) => ({ id, name: id }))}
      />
      <NumberInput source="costPrice" label="Cost price" min={0} step={0.01} />
      <ReferenceInput source="categoryId" reference="categories">
        <AutocompleteInput optionText="name" label="Category" />
      </ReferenceInput>
      <TextInput source="brand" />
      <NumberInput source="weightKg" label="Weight (kg)" min={0} />
      <MediaInput />
      <TextInput
        source="images"
        label="Image URLs (one per line)"
        multiline
        fullWidth
        format={imagesFormat}
        parse={imagesParse}
      />
      <TextInput source="supplierCode" label="Supplier code" />
      <TextInput source="adminNotes" label="Internal notes" multiline fullWidth />
      <BooleanInput source="active" defaultValue={true} />
    </>
  );
}

/** The variants of the product being created, one row each with a value per declared option. */
function NewVariantsInput() {
  return (
    <FormDataConsumer>
      {({ formData }) => {
        const options = declaredOptions(formData.options);
        if (options.length === 0) {
          return <NumberInput source="stockQty" label="Stock" min={0} step={1} />;
        }
        return (
          <ArrayInput source="variants" label="Variants">
            <SimpleFormIterator inline disableReordering>
              <TextInput source="sku" label="Variant SKU" validate={required()} />
              <OptionInputs options={options} />
              <NumberInput source="price" label="Variant price" min={0} step={0.01} />
              <NumberInput source="stockQty" label="Variant stock" min={0} step={1} />
            </SimpleFormIterator>
          </ArrayInput>
        );
      }}
    </FormDataConsumer>
  );
}

/** A product without options is created with its one plain variant; with options, with its variants. */
function createBody(data: Record<string, unknown>) {
  const body = { ...data };
  if (declaredOptions(body.options).length === 0) {
    delete body.options;
    delete body.variants;
  } else {
    delete body.stockQty;
  }
  return body;
}

/** The product's variants, each opening its own form; a product with options can get more. */
function VariantsPanel() {
  const product = useRecordContext();
  if (!product) return null;
  const hasOptions = declaredOptions(product.options).length > 0;
  return (
    <Box component="section" aria-label="Variants" sx={{ width: '100%' }}>
      <Typography component="h2" variant="h6">
        Variants
      </Typography>
      <ReferenceManyField reference="variants" target="productId" sort={{ field: 'position', order: 'ASC' }}>
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="sku" label="SKU" sortable={false} />
          <FunctionField
            label="Options"
            render={(variant: { options?: Record<string, string> }) =>
              Object.entries(variant.options ?? {})
                .map(([name, value]) => `${name}: ${value}`)
                .join(', ') || '—'
            }
          />
          <NumberField source="price" options={{ minimumFractionDigits: 2 }} emptyText="(product's)" />
          <NumberField source="stockQty" label="Stock" sortable={false} />
          <BooleanField source="active" sortable={false} />
        </Datagrid>
      </ReferenceManyField>
      {hasOptions && (
        <Button
          component={Link}
          to={{
            pathname: '/variants/create',
            search: `?source=${encodeURIComponent(JSON.stringify({ productId: product.id }))}`,
          }}
          label="Add variant"
        />
      )}
    </Box>
  );
}

function ProductHistory() {
  const product = useRecordContext();
  return product ? <ChangeHistory entity="product" entityId={product.id} /> : null;
}

export function ProductEdit() {
  return (
    <Edit mutationMode="pessimistic" aside={<ProductHistory />}>
      <SimpleForm>
        <ProductFields />
        <OptionsInput />
        <FormDataConsumer>
          {({ formData }) =>
            declaredOptions(formData.options).length === 0 ? (
              <NumberInput source="stockQty" label="Stock" min={0} step={1} />
            ) : null
          }
        </FormDataConsumer>
        <VariantsPanel />
      </SimpleForm>
    </Edit>
  );
}

export function ProductCreate() {
  return (
    <Create redirect="edit" transform={createBody}>
      <SimpleForm>
        <ProductFields />
        <OptionsInput />
        <NewVariantsInput />
      </SimpleForm>
    </Create>
  );
}
