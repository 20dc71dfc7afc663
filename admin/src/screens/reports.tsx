// Reports (Admin, Reporting): sales per day, week or month with a chart, top products, coupons and
// loyalty over a period, each with a CSV download (the same report asked with Accept: text/csv).
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { Title, useDataProvider, useNotify } from 'react-admin';
import type { ShopDataProvider } from '../data-provider.ts';
import { BarChart } from './bar-chart.tsx';

export const money = (amount: number) =>
  amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const isoDay = (day: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
};

export interface SalesBucket {
  period: string;
  orders: number;
  items: number;
  gross: number;
  net: number;
  vatTotal: number;
  discounts: number;
  shipping: number;
  pointsCash: number;
  returns: number;
  refunds: number;
}

/** One report's JSON for a query; reloads when the query changes. */
export function useReport<T>(name: string, query: Record<string, string>, enabled = true) {
  const dataProvider = useDataProvider() as unknown as ShopDataProvider;
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    dataProvider
      .report(name, JSON.parse(key))
      .then((answer) => current && setState({ data: answer.data as T, loading: false }))
      .catch((error: Error) => current && setState({ error: error.message, loading: false }));
    return () => {
      current = false;
    };
  }, [dataProvider, name, key, enabled]);
  return state;
}

function CsvButton({ name, query, label }: { name: string; query: Record<string, string>; label: string }) {
  const dataProvider = useDataProvider() as unknown as ShopDataProvider;
  const notify = useNotify();
  const download = async () => {
    try {
      const text = await dataProvider.reportCsv(name, query);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${name}-${query.from ?? ''}-${query.to ?? ''}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Button variant="outlined" size="small" onClick={download}>
      {label}
    </Button>
  );
}

function ReportCard({ title, action, children }: { title: string; action: ReactNode; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title} sx={{ mb: 2 }}>
      <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} action={action} />
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function Rows<T>({
  rows,
  columns,
  empty,
}: {
  rows: T[];
  columns: [string, (row: T) => ReactNode, boolean?][];
  empty: string;
}) {
  if (rows.length === 0) return <Typography>{empty}</Typography>;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          {columns.map(([label, , numeric]) => (
            <TableCell key={label} align={numeric ? 'right' : 'left'}>
              {label}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: report rows have no id and never reorder
          <TableRow key={i}>
            {columns.map(([label, cell, numeric]) => (
              <TableCell key={label} align={numeric ? 'right' : 'left'}>
                {cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Pending({
  state,
  children,
}: {
  state: { error?: string; loading: boolean };
  children: () => ReactNode;
}) {
  if (state.error) return <Typography role="alert">{state.error}</Typography>;
  if (state.loading) return <Typography>Loading…</Typography>;
  return <>{children()}</>;
}

interface TopProduct {
  sku: string;
  name: string;
  units: number;
  gross: number;
  returnedUnits: number;
}
interface CouponUse {
  couponId: number | null;
  /** null for a Reporting-only admin: codes are commercial data. */
  code: string | null;
  orders: number;
  discount: number;
  gross: number;
}
interface Loyalty {
  earned: number;
  redeemed: number;
  returned: number;
  adjusted: number;
  outstanding: number;
  outstandingCash: number;
}

export function Reports() {
  const today = new Date();
  const monthAgo = new Date(today);
  monthAgo.setDate(monthAgo.getDate() - 29);
  const [from, setFrom] = useState(isoDay(monthAgo));
  const [to, setTo] = useState(isoDay(today));
  const [interval, setBucket] = useState('day');
  const period = { from, to };
  const salesQuery = { ...period, interval };
  const sales = useReport<{ currency: string; buckets: SalesBucket[] }>('sales', salesQuery);
  const top = useReport<TopProduct[]>('top-products', period);
  const coupons = useReport<CouponUse[]>('coupons', period);
  const loyalty = useReport<Loyalty>('loyalty', period);
  return (
    <>
      <Title title="Reports" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 2 }}>
        <TextField
          label="From"
          type="date"
          size="small"
          value={from}
          onChange={(event) => event.target.value && setFrom(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="To"
          type="date"
          size="small"
          value={to}
          onChange={(event) => event.target.value && setTo(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          select
          label="Interval"
          size="small"
          value={interval}
          onChange={(event) => setBucket(event.target.value)}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="day">Day</MenuItem>
          <MenuItem value="week">Week</MenuItem>
          <MenuItem value="month">Month</MenuItem>
        </TextField>
      </Stack>
      <ReportCard
        title="Sales"
        action={<CsvButton name="sales" query={salesQuery} label="Download sales CSV" />}
      >
        <Pending state={sales}>
          {() => {
            const buckets = sales.data?.buckets ?? [];
            return (
              <>
                <BarChart
                  title={`Gross sales per ${interval}`}
                  format={money}
                  bars={buckets.map((bucket) => ({ label: bucket.period, value: bucket.gross }))}
                />
                <Rows
                  rows={[...buckets].reverse().filter((bucket) => bucket.orders > 0 || bucket.returns > 0)}
                  empty="No sales in this period."
                  columns={[
                    ['Period', (b) => b.period],
                    ['Orders', (b) => b.orders, true],
                    ['Items', (b) => b.items, true],
                    ['Gross', (b) => money(b.gross), true],
                    ['Net', (b) => money(b.net), true],
                    ['VAT', (b) => money(b.vatTotal), true],
                    ['Discounts', (b) => money(b.discounts), true],
                    ['Shipping', (b) => money(b.shipping), true],
                    ['Refunds', (b) => money(b.refunds), true],
                  ]}
                />
              </>
            );
          }}
        </Pending>
      </ReportCard>
      <ReportCard
        title="Top products"
        action={<CsvButton name="top-products" query={period} label="Download top products CSV" />}
      >
        <Pending state={top}>
          {() => (
            <Rows
              rows={top.data ?? []}
              empty="Nothing sold in this period."
              columns={[
                ['SKU', (p) => p.sku],
                ['Product', (p) => p.name],
                ['Units', (p) => p.units, true],
                ['Gross', (p) => money(p.gross), true],
                ['Returned', (p) => p.returnedUnits, true],
              ]}
            />
          )}
        </Pending>
      </ReportCard>
      <ReportCard
        title="Coupons"
        action={<CsvButton name="coupons" query={period} label="Download coupons CSV" />}
      >
        <Pending state={coupons}>
          {() => (
            <Rows
              rows={coupons.data ?? []}
              empty="No coupon used in this period."
              columns={[
                ['Coupon', (c) => c.code ?? `#${c.couponId ?? '?'}`],
                ['Orders', (c) => c.orders, true],
                ['Discount', (c) => money(c.discount), true],
                ['Order totals', (c) => money(c.gross), true],
              ]}
            />
          )}
        </Pending>
      </ReportCard>
      <ReportCard
        title="Loyalty points"
        action={<CsvButton name="loyalty" query={period} label="Download loyalty CSV" />}
      >
        <Pending state={loyalty}>
          {() => (
            <Rows
              rows={loyalty.data ? [loyalty.data] : []}
              empty="No points data."
              columns={[
                ['Earned', (l) => l.earned, true],
                ['Redeemed', (l) => l.redeemed, true],
                ['Given back', (l) => l.returned, true],
                ['Adjusted', (l) => l.adjusted, true],
                ['Outstanding', (l) => l.outstanding, true],
                ['Outstanding value', (l) => money(l.outstandingCash), true],
              ]}
            />
          )}
        </Pending>
      </ReportCard>
    </>
  );
}
