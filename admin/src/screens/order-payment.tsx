// An order's card payment on its page: the provider, the intent, where it stands, the attempts, the
// refunds sent to the card, and the capture of an authorized payment (manual capture).
import {
  Box,
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
import { messageOf } from '../api-answer.ts';
import type { Order } from '../api-types.ts';
import { useShopDataProvider } from '../use-shop-data-provider.ts';

const words = (status: string) => status.replaceAll('_', ' ');

function CaptureButton({ order }: { order: Order }) {
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (order.paymentStatus !== 'authorized' || order.status === 'cancelled') return null;
  const capture = async () => {
    setBusy(true);
    try {
      await dataProvider.captureOrderPayment(order.id);
      notify(`Capture of order ${order.number} requested: it is paid when the provider confirms`, {
        type: 'success',
      });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="contained" onClick={capture} disabled={busy}>
      Capture payment
    </Button>
  );
}

export function CardPaymentPanel() {
  const order = useRecordContext<Order>();
  const payment = order?.payment;
  if (!order || !payment) return null;
  return (
    <Box component="section" aria-label="Card payment" sx={{ mb: 2 }}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        Card payment
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1, alignItems: 'center' }}>
        <Typography variant="body2">Provider: {payment.provider}</Typography>
        <Typography variant="body2">Intent: {payment.intentId}</Typography>
        <Typography variant="body2">Status: {words(payment.status)}</Typography>
        <Typography variant="body2">Attempts: {payment.attempts}</Typography>
        <CaptureButton order={order} />
      </Stack>
      {payment.refunds.length > 0 && (
        <Table size="small" aria-label="Refunds to the card">
          <TableHead>
            <TableRow>
              <TableCell>Refund</TableCell>
              <TableCell align="right">Amount</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>At</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {payment.refunds.map((refund) => (
              <TableRow key={`${refund.providerRefundId ?? ''}${refund.at}`}>
                <TableCell>{refund.providerRefundId ?? '—'}</TableCell>
                <TableCell align="right">{refund.amount.toFixed(2)}</TableCell>
                <TableCell>{refund.status}</TableCell>
                <TableCell>{new Date(refund.at).toLocaleString()}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
