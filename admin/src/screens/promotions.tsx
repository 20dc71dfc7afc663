// Coupons, gift rules and shipping methods (checkout/coupon, checkout/gift, checkout/transport).
import {
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  DateTimeInput,
  Edit,
  List,
  NumberField,
  NumberInput,
  ReferenceArrayInput,
  required,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
} from 'react-admin';
import { instantParse } from '../instant.ts';
import { TranslatableInputs, type TranslatedField } from './translations.tsx';

const money = { minimumFractionDigits: 2 };

export function CouponList() {
  return (
    <List sort={{ field: 'id', order: 'DESC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="code" />
        <TextField source="type" />
        <NumberField source="value" />
        <NumberField source="minSubtotal" label="Minimum subtotal" options={money} />
        <DateField source="endsAt" label="Ends" emptyText="—" />
        <NumberField source="usageLimit" label="Usage limit" emptyText="—" />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

function CouponForm() {
  return (
    <SimpleForm>
      <TextInput source="code" validate={required()} />
      <SelectInput
        source="type"
        validate={required()}
        choices={[
          { id: 'percent', name: 'Percent' },
          { id: 'fixed', name: 'Fixed amount' },
        ]}
      />
      <NumberInput source="value" validate={required()} min={0} />
      <NumberInput source="minSubtotal" label="Minimum subtotal" min={0} />
      <DateTimeInput source="startsAt" label="Starts" parse={instantParse} />
      <DateTimeInput source="endsAt" label="Ends" parse={instantParse} />
      <NumberInput source="usageLimit" label="Usage limit" min={1} step={1} />
      <NumberInput source="perCustomerLimit" label="Per-customer limit" min={1} step={1} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const CouponEdit = () => (
  <Edit mutationMode="pessimistic">
    <CouponForm />
  </Edit>
);
export const CouponCreate = () => (
  <Create>
    <CouponForm />
  </Create>
);

export function GiftList() {
  return (
    <List sort={{ field: 'id', order: 'DESC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="name" emptyText="—" />
        <NumberField source="minSubtotal" label="Minimum subtotal" options={money} />
        <NumberField source="maxQty" label="Max quantity" />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

/** The texts per locale of a gift rule and of a shipping method (the API's translatable fields). */
const GIFT_TEXTS: TranslatedField[] = [{ source: 'name', label: 'Name' }];
const TRANSPORT_TEXTS: TranslatedField[] = [
  { source: 'name', label: 'Name', required: true },
  { source: 'description', label: 'Description', multiline: true },
];

function GiftForm() {
  return (
    <SimpleForm>
      <TranslatableInputs fields={GIFT_TEXTS} />
      <ReferenceArrayInput source="productIds" reference="products">
        <AutocompleteArrayInput optionText="name" label="Eligible products" validate={required()} />
      </ReferenceArrayInput>
      <NumberInput source="minSubtotal" label="Minimum subtotal" min={0} />
      <NumberInput source="maxQty" label="Max quantity" min={1} step={1} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const GiftEdit = () => (
  <Edit mutationMode="pessimistic">
    <GiftForm />
  </Edit>
);
export const GiftCreate = () => (
  <Create>
    <GiftForm />
  </Create>
);

export function TransportList() {
  return (
    <List sort={{ field: 'id', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="name" />
        <NumberField source="price" options={money} />
        <NumberField source="freeShippingThreshold" label="Free from" emptyText="—" />
        <NumberField source="codFee" label="Cash-on-delivery fee" />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

function TransportForm() {
  return (
    <SimpleForm>
      <TranslatableInputs fields={TRANSPORT_TEXTS} />
      <NumberInput source="price" validate={required()} min={0} step={0.01} />
      <NumberInput source="freeShippingThreshold" label="Free shipping from" min={0} />
      <NumberInput source="includedWeightKg" label="Included weight (kg)" min={0} />
      <NumberInput source="overweightPricePerKg" label="Price per extra kg" min={0} />
      <NumberInput source="codFee" label="Cash-on-delivery fee" min={0} />
      <SelectInput
        source="taxClass"
        label="VAT class (destination VAT)"
        choices={['standard', 'reduced', 'super_reduced', 'zero'].map((id) => ({ id, name: id }))}
        emptyText="The cart's main rate"
      />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const TransportEdit = () => (
  <Edit mutationMode="pessimistic">
    <TransportForm />
  </Edit>
);
export const TransportCreate = () => (
  <Create>
    <TransportForm />
  </Create>
);
