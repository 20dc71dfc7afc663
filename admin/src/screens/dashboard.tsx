import { Box, Card, CardContent, CardHeader, Grid, Typography } from '@mui/material';
import { Link, Title, useCanAccess, useGetList } from 'react-admin';

interface OrderRow {
  id: number;
  number: string;
  status: string;
  total: number;
  email: string;
  createdAt: string;
}

function startOfToday(): Date {
  const day = new Date();
  day.setHours(0, 0, 0, 0);
  return day;
}

function startOfWeek(): Date {
  const day = startOfToday();
  const sinceMonday = (day.getDay() + 6) % 7;
  day.setDate(day.getDate() - sinceMonday);
  return day;
}

const money = (amount: number) =>
  amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

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

/** Orders and sales today and this week, from the newest page of orders (newest first). */
function OrderFigures() {
  const { data = [], isPending } = useGetList<OrderRow>('orders', { pagination: { page: 1, perPage: 100 } });
  if (isPending) return <Typography>Loading orders…</Typography>;
  const live = data.filter((order) => order.status !== 'cancelled');
  const since = (from: Date) => live.filter((order) => new Date(order.createdAt) >= from);
  const today = since(startOfToday());
  const week = since(startOfWeek());
  const sum = (orders: OrderRow[]) => money(orders.reduce((total, order) => total + order.total, 0));
  return (
    <>
      <Grid container spacing={2} sx={{ mb: 2 }}>
        <Grid size={{ xs: 6, md: 3 }}>
          <Figure label="Orders today" value={today.length} />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <Figure label="Sales today" value={sum(today)} />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <Figure label="Orders this week" value={week.length} />
        </Grid>
        <Grid size={{ xs: 6, md: 3 }}>
          <Figure label="Sales this week" value={sum(week)} />
        </Grid>
      </Grid>
      <Card sx={{ mb: 2 }}>
        <CardHeader title="Latest orders" titleTypographyProps={{ component: 'h2', variant: 'h6' }} />
        <CardContent>
          {data.length === 0 ? (
            <Typography>No orders yet.</Typography>
          ) : (
            <ul>
              {data.slice(0, 5).map((order) => (
                <li key={order.id}>
                  <Link to={`/orders/${order.id}/show`}>{order.number}</Link> · {order.status} ·{' '}
                  {money(order.total)}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </>
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
        titleTypographyProps={{ component: 'h2', variant: 'h6' }}
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
  return (
    <>
      <Title title="Dashboard" />
      <Box sx={{ mt: 2 }} />
      {readsOrders && <OrderFigures />}
      <LowStock />
    </>
  );
}
