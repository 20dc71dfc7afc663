import { Button, Stack, TextField as MuiTextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import {
  BooleanField,
  BooleanInput,
  Datagrid,
  DateField,
  Edit,
  EmailField,
  List,
  NullableBooleanInput,
  NumberField,
  ReferenceManyField,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCanAccess,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import { messageOf } from '../api-answer.ts';
import type { Customer } from '../api-types.ts';
import { useShopDataProvider } from '../use-shop-data-provider.ts';

const customerFilters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search e-mail or name" />,
  <NullableBooleanInput key="active" source="active" label="Active" />,
  <NullableBooleanInput key="newsletter" source="newsletter" label="Newsletter" />,
];

export function CustomerList() {
  return (
    <List filters={customerFilters} sort={{ field: 'id', order: 'DESC' }} perPage={25}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" />
        <EmailField source="email" label="E-mail" />
        <TextField source="firstName" label="First name" />
        <TextField source="lastName" label="Last name" />
        <NumberField source="loyaltyPoints" label="Points" />
        <BooleanField source="active" sortable={false} />
        <DateField source="createdAt" label="Registered" />
      </Datagrid>
    </List>
  );
}

export function CustomerShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="id" />
        <EmailField source="email" label="E-mail" />
        <TextField source="firstName" label="First name" />
        <TextField source="lastName" label="Last name" />
        <TextField source="phone" emptyText="—" />
        <NumberField source="loyaltyPoints" label="Loyalty points" />
        <BooleanField source="newsletter" />
        <BooleanField source="active" />
        <DateField source="createdAt" label="Registered" showTime />
        <ReferenceManyField label="Addresses" reference="addresses" target="customerId">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>No addresses.</span>}>
            <TextField source="firstName" label="First name" />
            <TextField source="lastName" label="Last name" />
            <TextField source="street" />
            <TextField source="postalCode" label="Postal code" />
            <TextField source="city" />
            <TextField source="countryAlpha2" label="Country" />
            <BooleanField source="isDefault" label="Default" />
          </Datagrid>
        </ReferenceManyField>
        <CustomerOrders label="Orders" />
        <LoyaltySection />
      </SimpleShowLayout>
    </Show>
  );
}

/** The customer's orders, newest first: the order list filtered by the customer's e-mail (Admin, Orders). */
function CustomerOrders(_props: { label: string }) {
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'list' });
  if (!canAccess) return <span>Not shown to your roles.</span>;
  return (
    <ReferenceManyField reference="orders" target="email" source="email" perPage={10}>
      <Datagrid bulkActionButtons={false} rowClick="show" empty={<span>No orders.</span>}>
        <TextField source="number" sortable={false} />
        <DateField source="createdAt" label="Placed" showTime sortable={false} />
        <TextField source="status" sortable={false} />
        <NumberField source="total" options={{ minimumFractionDigits: 2 }} sortable={false} />
      </Datagrid>
    </ReferenceManyField>
  );
}

/** POST /rest/loyalty/adjustment for the customer shown (Admin, Marketing). */
function PointsAdjustment() {
  const customer = useRecordContext<Customer>();
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [delta, setDelta] = useState('');
  const [reason, setReason] = useState('');
  if (!customer) return null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await dataProvider.adjustPoints(customer.id, Number(delta), reason);
      notify(`Points adjusted by ${delta}`, { type: 'success' });
      setDelta('');
      setReason('');
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <Stack component="form" direction="row" spacing={2} onSubmit={submit} aria-label="Adjust points">
      <MuiTextField
        label="Points (+/−)"
        type="number"
        size="small"
        value={delta}
        onChange={(event) => setDelta(event.target.value)}
        required
      />
      <MuiTextField
        label="Reason"
        size="small"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        required
      />
      <Button type="submit" variant="contained">
        Adjust points
      </Button>
    </Stack>
  );
}

function LoyaltySection() {
  const { canAccess } = useCanAccess({ resource: 'loyaltyLedger', action: 'list' });
  if (!canAccess) return null;
  return (
    <Stack spacing={2}>
      <ReferenceManyField label="Points ledger" reference="loyaltyLedger" target="customerId" perPage={10}>
        <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>No points movements.</span>}>
          <DateField source="createdAt" label="When" showTime sortable={false} />
          <NumberField source="delta" label="Points" sortable={false} />
          <TextField source="reason" sortable={false} />
          <TextField source="note" emptyText="—" sortable={false} />
          <TextField source="actor" label="By" emptyText="—" sortable={false} />
        </Datagrid>
      </ReferenceManyField>
      <PointsAdjustment />
    </Stack>
  );
}

export function CustomerEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <SimpleForm>
        <TextInput source="firstName" label="First name" />
        <TextInput source="lastName" label="Last name" />
        <TextInput source="phone" />
        <BooleanInput source="newsletter" />
        <BooleanInput source="active" />
      </SimpleForm>
    </Edit>
  );
}
