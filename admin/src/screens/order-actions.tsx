// The moves an admin makes on an order's page: status transitions with a reason, recording the
// payment, the shipment with its tracking, and returns that refund chosen units (and restock them).
// Each is one call of the order API; the page reloads the order from its answer.
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  Stack,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
import { messageOf } from '../api-answer.ts';
import type { Order } from '../api-types.ts';
import type { OrderStatus } from '../shop-actions.ts';
import { useShopDataProvider } from '../use-shop-data-provider.ts';

/** The moves an order may make by transition (shipping goes through the shipment form). */
const NEXT_STATUSES: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

const ACTION_LABELS: Partial<Record<OrderStatus, string>> = {
  confirmed: 'Confirm',
  delivered: 'Mark delivered',
  cancelled: 'Cancel order',
};

/** Runs one order call, tells the admin how it went and reloads the page's order. */
function useOrderCall() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const run = async (done: string, action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      await action();
      notify(done, { type: 'success' });
      refresh();
      return true;
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mb: 2 }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

export function TransitionForm() {
  const order = useRecordContext<Order>();
  const dataProvider = useShopDataProvider();
  const { busy, run } = useOrderCall();
  const [reason, setReason] = useState('');
  if (!order) return null;
  const next = NEXT_STATUSES[order.status] ?? [];
  if (next.length === 0) return null;
  const move = (to: OrderStatus) =>
    run(`Order ${order.number} is now ${to}`, () =>
      dataProvider.transitionOrder(order.id, to, reason.trim() || undefined),
    ).then((moved) => moved && setReason(''));
  return (
    <Section title="Status">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'center' }}>
        <MuiTextField
          label="Reason (kept in the history)"
          size="small"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        {next.map((to) => (
          <Button
            key={to}
            disabled={busy}
            variant={to === 'cancelled' ? 'outlined' : 'contained'}
            color={to === 'cancelled' ? 'error' : 'primary'}
            onClick={() => move(to)}
          >
            {ACTION_LABELS[to] ?? to}
          </Button>
        ))}
      </Stack>
    </Section>
  );
}

export function PaymentForm() {
  const order = useRecordContext<Order>();
  const dataProvider = useShopDataProvider();
  const { busy, run } = useOrderCall();
  const [reference, setReference] = useState('');
  if (order?.paymentStatus !== 'pending' || order.status === 'cancelled') return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run(`Order ${order.number} is paid`, () =>
      dataProvider.markOrderPaid(order.id, reference.trim() || undefined),
    );
  };
  return (
    <Section title="Payment">
      <Stack component="form" onSubmit={submit} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <MuiTextField
          label="Payment reference"
          size="small"
          value={reference}
          onChange={(event) => setReference(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <Button type="submit" variant="contained" disabled={busy}>
          Mark paid
        </Button>
      </Stack>
    </Section>
  );
}

export function ShipmentForm() {
  const order = useRecordContext<Order>();
  const dataProvider = useShopDataProvider();
  const { busy, run } = useOrderCall();
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [trackingUrl, setTrackingUrl] = useState('');
  if (order?.status !== 'confirmed') return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const shipment = {
      carrier: carrier.trim(),
      trackingNumber: trackingNumber.trim(),
      trackingUrl: trackingUrl.trim() || undefined,
    };
    run(`Order ${order.number} is shipped`, () => dataProvider.shipOrder(order.id, shipment));
  };
  return (
    <Section title="Shipment">
      <Stack component="form" onSubmit={submit} direction={{ xs: 'column', md: 'row' }} spacing={1}>
        <MuiTextField
          label="Carrier"
          size="small"
          required
          value={carrier}
          onChange={(event) => setCarrier(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <MuiTextField
          label="Tracking number"
          size="small"
          required
          value={trackingNumber}
          onChange={(event) => setTrackingNumber(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 100, pattern: '[A-Za-z0-9 ._/\\-]+' } }}
        />
        <MuiTextField
          label="Tracking URL"
          size="small"
          type="url"
          value={trackingUrl}
          onChange={(event) => setTrackingUrl(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <Button type="submit" variant="contained" disabled={busy}>
          Ship order
        </Button>
      </Stack>
    </Section>
  );
}

/** Units of each line already taken back by earlier returns. */
export function returnedUnits(
  returns: readonly Pick<Order['returns'][number], 'lines'>[],
): Map<number, number> {
  const returned = new Map<number, number>();
  for (const taken of returns) {
    for (const line of taken.lines) {
      returned.set(line.orderLineId, (returned.get(line.orderLineId) ?? 0) + line.qty);
    }
  }
  return returned;
}

/** How many units of one line to take back, out of those not returned yet (`left`). */
function ReturnLineInput({
  line,
  left,
  value,
  onChange,
}: {
  line: Order['lines'][number];
  left: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
      <MuiTextField
        label={`Return units of ${line.sku}`}
        size="small"
        type="number"
        disabled={left <= 0}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        slotProps={{ htmlInput: { min: 0, max: left, step: 1 } }}
        sx={{ width: 320 }}
      />
      <Typography variant="body2">
        {line.name}: {left} of {line.qty} can be returned
      </Typography>
    </Stack>
  );
}

export function ReturnForm() {
  const order = useRecordContext<Order>();
  const dataProvider = useShopDataProvider();
  const { busy, run } = useOrderCall();
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [restock, setRestock] = useState(true);
  const [reason, setReason] = useState('');
  if (!order || (order.status !== 'shipped' && order.status !== 'delivered')) return null;
  const lines = order.lines ?? [];
  const returned = returnedUnits(order.returns ?? []);
  const chosen = lines
    .map((line) => ({ orderLineId: line.id, qty: Number(quantities[line.id] ?? 0) }))
    .filter((line) => Number.isInteger(line.qty) && line.qty > 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0) return;
    run(`Return recorded for ${order.number}`, () =>
      dataProvider.returnOrderLines(order.id, { lines: chosen, restock, reason: reason.trim() || undefined }),
    ).then((done) => done && setQuantities({}));
  };
  return (
    <Section title="Return and refund">
      <Box component="form" onSubmit={submit}>
        {lines.map((line) => (
          <ReturnLineInput
            key={line.id}
            line={line}
            left={line.qty - (returned.get(line.id) ?? 0)}
            value={quantities[line.id] ?? ''}
            onChange={(value) => setQuantities({ ...quantities, [line.id]: value })}
          />
        ))}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'center' }}>
          <FormControlLabel
            control={<Checkbox checked={restock} onChange={(event) => setRestock(event.target.checked)} />}
            label="Put the units back in stock"
          />
          <MuiTextField
            label="Return reason"
            size="small"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          <Button type="submit" variant="contained" disabled={busy || chosen.length === 0}>
            Refund selected units
          </Button>
        </Stack>
      </Box>
    </Section>
  );
}
