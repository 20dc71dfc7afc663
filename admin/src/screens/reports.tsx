// Reports (Admin, Reporting): sales per day, week or month with a chart, top products, coupons and
// loyalty over a period, each with a CSV download (the same report asked with Accept: text/csv).
import { MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { Title } from 'react-admin';
import type { ReportQuery } from '../report-calls.ts';
import { BarChart } from './bar-chart.tsx';
import { CsvButton, isoDay, money, Pending, ReportCard, Rows, useReport } from './report-parts.tsx';

type Interval = NonNullable<ReportQuery<'sales'>['interval']>;
type Period = { from: string; to: string };

const INTERVALS: readonly { id: Interval; label: string }[] = [
  { id: 'day', label: 'Day' },
  { id: 'week', label: 'Week' },
  { id: 'month', label: 'Month' },
];

function PeriodPicker({
  period,
  interval,
  onPeriod,
  onInterval,
}: {
  period: Period;
  interval: Interval;
  onPeriod: (period: Period) => void;
  onInterval: (interval: Interval) => void;
}) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 2 }}>
      <TextField
        label="From"
        type="date"
        size="small"
        value={period.from}
        onChange={(event) => event.target.value && onPeriod({ ...period, from: event.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label="To"
        type="date"
        size="small"
        value={period.to}
        onChange={(event) => event.target.value && onPeriod({ ...period, to: event.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        select
        label="Interval"
        size="small"
        value={interval}
        onChange={(event) => onInterval(INTERVALS.find((i) => i.id === event.target.value)?.id ?? 'day')}
        sx={{ minWidth: 140 }}
      >
        {INTERVALS.map((choice) => (
          <MenuItem key={choice.id} value={choice.id}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

function SalesCard({ period, interval }: { period: Period; interval: Interval }) {
  const query = { ...period, interval };
  const sales = useReport('sales', query);
  return (
    <ReportCard title="Sales" action={<CsvButton name="sales" query={query} label="Download sales CSV" />}>
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
  );
}

function TopProductsCard({ period }: { period: Period }) {
  const top = useReport('top-products', period);
  const csv = <CsvButton name="top-products" query={period} label="Download top products CSV" />;
  return (
    <ReportCard title="Top products" action={csv}>
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
  );
}

function CouponsCard({ period }: { period: Period }) {
  const coupons = useReport('coupons', period);
  const csv = <CsvButton name="coupons" query={period} label="Download coupons CSV" />;
  return (
    <ReportCard title="Coupons" action={csv}>
      <Pending state={coupons}>
        {() => (
          <Rows
            rows={coupons.data ?? []}
            empty="No coupon used in this period."
            columns={[
              // The code is null for a Reporting-only admin: codes are commercial data.
              ['Coupon', (c) => c.code ?? `#${c.couponId ?? '?'}`],
              ['Orders', (c) => c.orders, true],
              ['Discount', (c) => money(c.discount), true],
              ['Order totals', (c) => money(c.gross), true],
            ]}
          />
        )}
      </Pending>
    </ReportCard>
  );
}

function PromotionsCard({ period }: { period: Period }) {
  const promotions = useReport('promotions', period);
  const csv = <CsvButton name="promotions" query={period} label="Download promotions CSV" />;
  return (
    <ReportCard title="Promotions" action={csv}>
      <Pending state={promotions}>
        {() => (
          <Rows
            rows={promotions.data ?? []}
            empty="No cart promotion applied in this period."
            columns={[
              ['Promotion', (p) => p.name],
              ['Orders', (p) => p.orders, true],
              ['Discount given', (p) => money(p.discount), true],
              ['Order totals', (p) => money(p.gross), true],
            ]}
          />
        )}
      </Pending>
    </ReportCard>
  );
}

function LoyaltyCard({ period }: { period: Period }) {
  const loyalty = useReport('loyalty', period);
  const csv = <CsvButton name="loyalty" query={period} label="Download loyalty CSV" />;
  return (
    <ReportCard title="Loyalty points" action={csv}>
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
  );
}

export function Reports() {
  const today = new Date();
  const monthAgo = new Date(today);
  monthAgo.setDate(monthAgo.getDate() - 29);
  const [period, setPeriod] = useState<Period>({ from: isoDay(monthAgo), to: isoDay(today) });
  const [interval, chooseInterval] = useState<Interval>('day');
  return (
    <>
      <Title title="Reports" />
      <PeriodPicker period={period} interval={interval} onPeriod={setPeriod} onInterval={chooseInterval} />
      <SalesCard period={period} interval={interval} />
      <TopProductsCard period={period} />
      <CouponsCard period={period} />
      <PromotionsCard period={period} />
      <LoyaltyCard period={period} />
    </>
  );
}
