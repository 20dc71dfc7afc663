import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  List,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  required,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
} from 'react-admin';

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
];

export function ProductList() {
  return (
    <List filters={productFilters} sort={{ field: 'id', order: 'DESC' }} perPage={25}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="sku" label="SKU" />
        <TextField source="name" />
        <ReferenceField source="categoryId" reference="categories" label="Category" sortable={false} />
        <NumberField source="price" options={{ minimumFractionDigits: 2 }} />
        <NumberField source="stockQty" label="Stock" sortable={false} />
        <BooleanField source="active" sortable={false} />
      </Datagrid>
    </List>
  );
}

/** Image URLs are edited one per line. */
const imagesFormat = (urls: unknown) => (Array.isArray(urls) ? urls.join('\n') : '');
const imagesParse = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function ProductForm() {
  return (
    <SimpleForm>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="sku" label="SKU" validate={required()} />
      <NumberInput source="price" label="Price (gross)" validate={required()} min={0} step={0.01} />
      <NumberInput source="vatRate" label="VAT rate (%)" min={0} />
      <NumberInput source="stockQty" label="Stock" min={0} step={1} />
      <NumberInput source="costPrice" label="Cost price" min={0} step={0.01} />
      <ReferenceInput source="categoryId" reference="categories">
        <AutocompleteInput optionText="name" label="Category" />
      </ReferenceInput>
      <TextInput source="brand" />
      <NumberInput source="weightKg" label="Weight (kg)" min={0} />
      <TextInput source="description" multiline fullWidth minRows={3} />
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
    </SimpleForm>
  );
}

export function ProductEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <ProductForm />
    </Edit>
  );
}

export function ProductCreate() {
  return (
    <Create redirect="edit">
      <ProductForm />
    </Create>
  );
}
