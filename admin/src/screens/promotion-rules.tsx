// Promotions (checkout/promotion, docs/promotions.md): catalog sales and cart rules, scheduled by
// startsAt / endsAt, paused with active, with their uses and the discount they gave.
import {
  ArrayInput,
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  DateTimeInput,
  Edit,
  FormDataConsumer,
  List,
  NumberField,
  NumberInput,
  ReferenceArrayInput,
  required,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextArrayInput,
  TextField,
} from 'react-admin';
import { instantParse } from '../instant.ts';
import { TranslatableInputs, type TranslatedField } from './translations.tsx';

const money = { minimumFractionDigits: 2 };

export function PromotionList() {
  return (
    <List sort={{ field: 'id', order: 'DESC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="name" />
        <TextField source="kind" />
        <TextField source="action.type" label="Action" />
        <NumberField source="priority" />
        <DateField source="startsAt" label="Starts" showTime emptyText="—" />
        <DateField source="endsAt" label="Ends" showTime emptyText="—" />
        <NumberField source="usedCount" label="Orders" />
        <NumberField source="discountGiven" label="Discount given" options={money} />
        <BooleanField source="active" />
      </Datagrid>
    </List>
  );
}

function ActionInputs() {
  return (
    <FormDataConsumer>
      {({ formData }) => {
        const type = formData.action?.type;
        if (type === 'buy_x_get_y')
          return (
            <>
              <NumberInput source="action.buyQty" label="Buy" min={1} step={1} validate={required()} />
              <NumberInput source="action.getQty" label="Get" min={1} step={1} validate={required()} />
              <NumberInput
                source="action.percent"
                label="Percent off those"
                min={0}
                max={100}
                validate={required()}
              />
            </>
          );
        if (type === 'tiered')
          return (
            <ArrayInput source="action.tiers" label="Tiers">
              <SimpleFormIterator inline>
                <NumberInput source="minSubtotal" label="From subtotal" min={0} />
                <NumberInput source="percent" min={0} max={100} />
              </SimpleFormIterator>
            </ArrayInput>
          );
        return (
          <NumberInput
            source="action.value"
            label={type === 'fixed' ? 'Amount off' : 'Percent off'}
            min={0}
            validate={required()}
          />
        );
      }}
    </FormDataConsumer>
  );
}

/** Conditions only a cart rule takes: not shown for a catalog sale, so none is sent with one. */
function CartConditionInputs() {
  return (
    <FormDataConsumer>
      {({ formData }) =>
        formData.kind === 'cart' && (
          <>
            <NumberInput source="conditions.minSubtotal" label="Minimum subtotal (cart rules)" min={0} />
            <NumberInput source="conditions.minQty" label="Minimum units (cart rules)" min={1} step={1} />
            <BooleanInput source="conditions.customersOnly" label="Signed-in customers only (cart rules)" />
          </>
        )
      }
    </FormDataConsumer>
  );
}
/** The promotion's texts per locale (the API's translatable fields). */
const PROMOTION_TEXTS: TranslatedField[] = [{ source: 'name', label: 'Name', required: true }];

function PromotionForm() {
  return (
    <SimpleForm>
      <TranslatableInputs fields={PROMOTION_TEXTS} />
      <SelectInput
        source="kind"
        validate={required()}
        choices={[
          { id: 'catalog', name: 'Catalog sale (prices shown and charged)' },
          { id: 'cart', name: 'Cart rule (in the checkout)' },
        ]}
      />
      <SelectInput
        source="action.type"
        label="Action"
        validate={required()}
        choices={[
          { id: 'percent', name: 'Percent off' },
          { id: 'fixed', name: 'Amount off' },
          { id: 'buy_x_get_y', name: 'Buy X, get Y' },
          { id: 'tiered', name: 'Tiers' },
        ]}
      />
      <ActionInputs />
      <ReferenceArrayInput source="conditions.categoryIds" reference="categories">
        <AutocompleteArrayInput optionText="name" label="Categories" />
      </ReferenceArrayInput>
      <ReferenceArrayInput source="conditions.productIds" reference="products">
        <AutocompleteArrayInput optionText="name" label="Products" />
      </ReferenceArrayInput>
      <TextArrayInput source="conditions.brands" label="Brands" />
      <CartConditionInputs />
      <DateTimeInput source="startsAt" label="Starts" parse={instantParse} />
      <DateTimeInput source="endsAt" label="Ends" parse={instantParse} />
      <NumberInput source="priority" min={0} max={1000} step={1} defaultValue={0} />
      <BooleanInput source="exclusive" label="Exclusive (stops lower priorities)" />
      <BooleanInput source="combinesWithCoupons" label="Combines with coupons" defaultValue={true} />
      <NumberInput source="usageLimit" label="Usage limit" min={1} step={1} />
      <BooleanInput source="active" label="Active (off: paused)" defaultValue={true} />
    </SimpleForm>
  );
}

export const PromotionEdit = () => (
  <Edit mutationMode="pessimistic">
    <PromotionForm />
  </Edit>
);
export const PromotionCreate = () => (
  <Create>
    <PromotionForm />
  </Create>
);
