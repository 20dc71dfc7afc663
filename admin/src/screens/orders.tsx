import { Button as MuiButton, Stack, Typography } from '@mui/material';
import {
  ArrayField,
  Datagrid,
  DateField,
  FunctionField,
  Labeled,
  List,
  NumberField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import type { ShopDataProvider } from '../data-provider.ts';

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;

/** The moves an order may make (the service's order state machine). */
const NEXT_STATUSES: Record<string, readonly string[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

const ACTION_LABELS: Record<string, string> = {
  confirmed: 'Confirm',
  shipped: 'Mark shipped',
  delivered: 'Mark delivered',
  cancelled: 'Cancel order',
};

const orderFilters = [
  <SelectInput
    key="status"
    source="status"
    label="Status"
    alwaysOn
    choices={ORDER_STATUSES.map((status) => ({ id: status, name: status }))}
  />,
];

const money = { minimumFractionDigits: 2, maximumFractionDigits: 2 };

export function OrderList() {
  return (
    <List filters={orderFilters} perPage={25} sort={{ field: 'id', order: 'DESC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="number" sortable={false} />
        <DateField source="createdAt" label="Placed" showTime sortable={false} />
        <TextField source="email" label="E-mail" sortable={false} />
        <TextField source="status" sortable={false} />
        <NumberField source="total" options={money} sortable={false} />
      </Datagrid>
    </List>
  );
}

function TransitionButtons() {
  const order = useRecordContext();
  const dataProvider = useDataProvider() as unknown as ShopDataProvider;
  const notify = useNotify();
  const refresh = useRefresh();
  if (!order) return null;
  const next = NEXT_STATUSES[String(order.status)] ?? [];
  if (next.length === 0) return <Typography variant="body2">No further transitions.</Typography>;
  const move = async (to: string) => {
    try {
      await dataProvider.transitionOrder(order.id, to);
      notify(`Order ${order.number} is now ${to}`, { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Stack direction="row" spacing={1}>
      {next.map((to) => (
        <MuiButton
          key={to}
          variant={to === 'cancelled' ? 'outlined' : 'contained'}
          color={to === 'cancelled' ? 'error' : 'primary'}
          onClick={() => move(to)}
        >
          {ACTION_LABELS[to] ?? to}
        </MuiButton>
      ))}
    </Stack>
  );
}

function AddressBlock() {
  const order = useRecordContext();
  const address = order?.address as Record<string, string | null> | undefined;
  if (!address) return null;
  return (
    <Typography component="address" variant="body2" sx={{ fontStyle: 'normal', whiteSpace: 'pre-line' }}>
      {[
        `${address.firstName} ${address.lastName}`,
        address.street,
        [address.postalCode, address.city].filter(Boolean).join(' '),
        [address.countyAlpha, address.countryAlpha2].filter(Boolean).join(', '),
        address.phone,
        address.email,
      ]
        .filter(Boolean)
        .join('\n')}
    </Typography>
  );
}

export function OrderShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="number" />
        <TextField source="status" />
        <Labeled label="Transitions">
          <TransitionButtons />
        </Labeled>
        <DateField source="createdAt" label="Placed" showTime />
        <TextField source="email" label="E-mail" />
        <Labeled label="Delivery address">
          <AddressBlock />
        </Labeled>
        <ArrayField source="lines">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <TextField source="sku" label="SKU" />
            <TextField source="name" />
            <NumberField source="qty" label="Quantity" />
            <NumberField source="unitPrice" label="Unit price" options={money} />
            <NumberField source="vatRate" label="VAT %" />
            <NumberField source="lineTotal" label="Line total" options={money} />
          </Datagrid>
        </ArrayField>
        <ArrayField source="vatBreakdown" label="VAT breakdown">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <NumberField source="rate" label="Rate %" />
            <NumberField source="net" options={money} />
            <NumberField source="vat" label="VAT" options={money} />
            <NumberField source="gross" options={money} />
          </Datagrid>
        </ArrayField>
        <FunctionField
          label="Totals"
          render={(order: { totals?: Record<string, unknown> }) => (
            <Stack component="dl" sx={{ m: 0 }}>
              {Object.entries(order.totals ?? {})
                .filter(([, value]) => typeof value === 'number' || typeof value === 'string')
                .map(([name, value]) => (
                  <Stack key={name} direction="row" spacing={2}>
                    <Typography component="dt" variant="body2" sx={{ minWidth: 180 }}>
                      {name}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                      {String(value)}
                    </Typography>
                  </Stack>
                ))}
            </Stack>
          )}
        />
        <NumberField source="total" options={money} />
        <TextField source="transport.name" label="Shipping" emptyText="—" />
        <TextField source="payWay" label="Payment" emptyText="—" />
        <TextField source="couponCode" label="Coupon" emptyText="—" />
        <NumberField source="pointsSpent" label="Points spent" />
      </SimpleShowLayout>
    </Show>
  );
}
