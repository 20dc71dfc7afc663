import { Box, Card, CardContent, CardHeader, Grid, Typography } from '@mui/material';
import { Link, Title, useCanAccess, useGetList } from 'react-admin';
import { isoDay, money, type SalesBucket, useReport } from './reports.tsx';

interface OrderRow {
  id: number;
  number: string;
  status: string;
  total: number;
  email: string;
  createdAt: string;
}

function startOfWeek(): Date {
  const day = new Date();
  const sinceMonday = (day.getDay() + 6) % 7;
  day.setDate(day.getDate() - sinceMonday);
  return day;
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="h5" component="p">
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** Orders and sales today and this week, from the sales report (days in the shop's time zone). */
function SalesFigures() {
  const today = isoDay(new Date());
  const report = useReport<{ buckets: SalesBucket[] }>('sales', { from: isoDay(startOfWeek()), to: today });
  if (report.error) return <Typography role="alert">{report.error}</Typography>;
  if (report.loading) return <Typography>Loading sales…</Typography>;
  const buckets = report.data?.buckets ?? [];
  const todays = buckets.filter((bucket) => bucket.period === today);
  const sum = (rows: SalesBucket[], field: 'orders' | 'gross') => rows.reduce((n, row) => n + row[field], 0);
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      <Grid size={{ xs: 6, md: 3 }}>
        <Figure label="Orders today" value={sum(todays, 'orders')} />
      </Grid>
      <Grid size={{ xs: 6, md: 3 }}>
        <Figure label="Sales today" value={money(sum(todays, 'gross'))} />
      </Grid>
      <Grid size={{ xs: 6, md: 3 }}>
        <Figure label="Orders this week" value={sum(buckets, 'orders')} />
      </Grid>
      <Grid size={{ xs: 6, md: 3 }}>
        <Figure label="Sales this week" value={money(sum(buckets, 'gross'))} />
      </Grid>
    </Grid>
  );
}

function LatestOrders() {
  const { data = [], isPending } = useGetList<OrderRow>('orders', { pagination: { page: 1, perPage: 5 } });
  return (
    <Card sx={{ mb: 2 }}>
      <CardHeader title="Latest orders" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        {isPending ? (
          <Typography>Loading orders…</Typography>
        ) : data.length === 0 ? (
          <Typography>No orders yet.</Typography>
        ) : (
          <ul>
            {data.map((order) => (
              <li key={order.id}>
                <Link to={`/orders/${order.id}/show`}>{order.number}</Link> · {order.status} · {order.email} ·{' '}
                {money(order.total)}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

interface ProductRow {
  id: number;
  name: string;
  sku: string;
  stockQty: number;
}

function LowStock() {
  const {
    data = [],
    total,
    isPending,
  } = useGetList<ProductRow>('products', {
    pagination: { page: 1, perPage: 10 },
    sort: { field: 'name', order: 'ASC' },
    filter: { stockQty_lte: 5, active: true },
  });
  return (
    <Card>
      <CardHeader
        title={`Low stock (5 or fewer)${total ? `: ${total}` : ''}`}
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
      />
      <CardContent>
        {isPending ? (
          <Typography>Loading…</Typography>
        ) : data.length === 0 ? (
          <Typography>No product is low on stock.</Typography>
        ) : (
          <ul>
            {data.map((product) => (
              <li key={product.id}>
                <Link to={`/products/${product.id}`}>{product.name}</Link> ({product.sku}): {product.stockQty}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

export function Dashboard() {
  const { canAccess: readsOrders } = useCanAccess({ resource: 'orders', action: 'list' });
  const { canAccess: readsReports } = useCanAccess({ resource: 'reports', action: 'list' });
  return (
    <>
      <Title title="Dashboard" />
      <Box sx={{ mt: 2 }} />
      {readsReports && <SalesFigures />}
      {readsOrders && <LatestOrders />}
      <LowStock />
    </>
  );
}
