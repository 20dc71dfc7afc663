import { Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  ArrayField,
  BooleanField,
  Datagrid,
  DateField,
  DateInput,
  FunctionField,
  Labeled,
  List,
  NumberField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  UrlField,
  useRecordContext,
} from 'react-admin';
import type { Order } from '../api-types.ts';
import { PaymentForm, ReturnForm, ShipmentForm, TransitionForm } from './order-actions.tsx';
import { CardPaymentPanel } from './order-payment.tsx';

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;

/** A day picked in the filter as the instant the API compares with: that day's local midnight. */
const dayStart = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : '');
/** "Placed up to" a day: before the next day's local midnight. */
const dayEnd = (day: string) => {
  if (!day) return '';
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return next.toISOString();
};
/** The filter's instant shown as the day it was picked as. */
const asDay = (offsetDays: number) => (value: unknown) => {
  if (typeof value !== 'string' || !value) return '';
  const day = new Date(value);
  day.setDate(day.getDate() + offsetDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
};

// The order list's filters are those of its query schema (status, placed from/to, e-mail, number).
const orderFilters = [
  <SelectInput
    key="status"
    source="status"
    label="Status"
    alwaysOn
    choices={ORDER_STATUSES.map((status) => ({ id: status, name: status }))}
  />,
  <TextInput key="number" source="number" label="Order number" alwaysOn />,
  <TextInput key="email" source="email" label="Customer e-mail" type="email" />,
  <DateInput key="createdFrom" source="createdFrom" label="Placed from" parse={dayStart} format={asDay(0)} />,
  <DateInput key="createdTo" source="createdTo" label="Placed up to" parse={dayEnd} format={asDay(-1)} />,
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
        <FunctionField label="Payment" render={paymentLabel} sortable={false} />
        <NumberField source="total" options={money} sortable={false} />
      </Datagrid>
    </List>
  );
}

const paymentLabel = (order: { paymentStatus?: string }) =>
  (order.paymentStatus ?? '').replace('_', ' ') || '—';

const amount = (value: unknown) =>
  typeof value === 'number' ? value.toLocaleString(undefined, money) : String(value ?? '—');

/** camelCase field names of the totals as words ("shippingCost" → "shipping cost"). */
const words = (name: string) => name.replace(/([A-Z])/g, ' $1').toLowerCase();

function Facts({ entries }: { entries: [string, ReactNode][] }) {
  return (
    <Stack component="dl" sx={{ m: 0 }}>
      {entries.map(([name, value]) => (
        <Stack key={name} direction="row" spacing={2}>
          <Typography component="dt" variant="body2" sx={{ minWidth: 180 }}>
            {name}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}

function AddressBlock() {
  const address = useRecordContext<Order>()?.address;
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

/** The ordered lines. */
const lineRows = (
  <Datagrid bulkActionButtons={false} rowClick={false}>
    <TextField source="sku" label="SKU" />
    <TextField source="name" />
    <FunctionField
      label="Options"
      render={(line: { options?: Record<string, string> }) =>
        Object.entries(line.options ?? {})
          .map(([name, value]) => `${name}: ${value}`)
          .join(', ') || '—'
      }
    />
    <NumberField source="qty" label="Quantity" />
    <NumberField source="unitPrice" label="Unit price" options={money} />
    <NumberField source="vatRate" label="VAT %" />
    <NumberField source="lineTotal" label="Line total" options={money} />
  </Datagrid>
);

/** VAT per rate. */
const vatRows = (
  <Datagrid bulkActionButtons={false} rowClick={false}>
    <NumberField source="rate" label="Rate %" />
    <NumberField source="net" options={money} />
    <NumberField source="vat" label="VAT" options={money} />
    <NumberField source="gross" options={money} />
  </Datagrid>
);

/** The shipments with their tracking. */
const shipmentRows = (
  <Datagrid
    bulkActionButtons={false}
    rowClick={false}
    empty={<Typography variant="body2">Not shipped yet.</Typography>}
  >
    <DateField source="at" label="Shipped" showTime />
    <TextField source="carrier" />
    <TextField source="trackingNumber" label="Tracking number" />
    <UrlField source="trackingUrl" label="Tracking URL" emptyText="—" />
  </Datagrid>
);

/** Every status change, who made it and why. */
const historyRows = (
  <Datagrid bulkActionButtons={false} rowClick={false}>
    <DateField source="at" label="When" showTime />
    <TextField source="from" emptyText="—" />
    <TextField source="to" />
    <TextField source="by" label="By" />
    <TextField source="reason" emptyText="—" />
  </Datagrid>
);

/** Returns and what they refunded. */
const returnRows = (
  <Datagrid
    bulkActionButtons={false}
    rowClick={false}
    empty={<Typography variant="body2">No returns.</Typography>}
  >
    <DateField source="at" label="When" showTime />
    <NumberField source="amount" label="Refunded" options={money} />
    <NumberField source="points" label="Points back" />
    <BooleanField source="restock" label="Restocked" />
    <TextField source="reason" emptyText="—" />
  </Datagrid>
);

const when = (at: unknown) => (typeof at === 'string' ? new Date(at).toLocaleString() : '—');

export function OrderShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="number" />
        <TextField source="status" />
        <DateField source="createdAt" label="Placed" showTime />
        <TextField source="email" label="E-mail" />
        <TransitionForm />
        <PaymentForm />
        <CardPaymentPanel />
        <ShipmentForm />
        <Labeled label="Delivery address">
          <AddressBlock />
        </Labeled>
        <ArrayField source="lines">{lineRows}</ArrayField>
        <ArrayField source="vatBreakdown" label="VAT breakdown">
          {vatRows}
        </ArrayField>
        <FunctionField
          label="Totals"
          render={(order: { totals?: Record<string, unknown> }) => (
            <Facts
              entries={Object.entries(order.totals ?? {})
                .filter(([, value]) => typeof value === 'number' || typeof value === 'string')
                .map(([name, value]) => [words(name), amount(value)])}
            />
          )}
        />
        <NumberField source="total" options={money} />
        <TextField source="transport.name" label="Shipping" emptyText="—" />
        <TextField source="shippingZone.zoneName" label="Shipping zone" emptyText="—" />
        <TextField source="shippingZone.rateId" label="Shipping rate" emptyText="—" />
        <TextField source="vatId" label="VAT id" emptyText="—" />
        <TextField source="payWay" label="Payment method" emptyText="—" />
        <TextField source="couponCode" label="Coupon" emptyText="—" />
        <NumberField source="pointsSpent" label="Points spent" />
        <FunctionField
          label="Payment"
          render={(order: Record<string, unknown>) => (
            <Facts
              entries={[
                ['status', paymentLabel(order)],
                ['paid', amount(order.paid)],
                ['refunded', amount(order.refunded)],
                ['paid at', when(order.paidAt)],
              ]}
            />
          )}
        />
        <ArrayField source="shipments">{shipmentRows}</ArrayField>
        <ArrayField source="statusHistory" label="Status history">
          {historyRows}
        </ArrayField>
        <ArrayField source="returns">{returnRows}</ArrayField>
        <ReturnForm />
      </SimpleShowLayout>
    </Show>
  );
}
