// The pieces of the reports page and the dashboard: a report's JSON as a hook, its CSV download, a
// card, a table of rows and the loading and error states.
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { messageOf } from '../api-answer.ts';
import { useShopDataProvider } from '../use-shop-data-provider.ts';
import type { ReportData, ReportName, ReportQuery } from '../report-calls.ts';

export const money = (amount: number) =>
  amount.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const isoDay = (day: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
};

export type SalesBucket = ReportData<'sales'>['buckets'][number];

/** One report's JSON for a query; reloads when the query changes. */
export function useReport<Name extends ReportName>(name: Name, query: ReportQuery<Name>, enabled = true) {
  const dataProvider = useShopDataProvider();
  const [state, setState] = useState<{ data?: ReportData<Name>; error?: string; loading: boolean }>({
    loading: true,
  });
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    dataProvider
      .report(name, JSON.parse(key))
      .then((answer) => current && setState({ data: answer.data, loading: false }))
      .catch((error: Error) => current && setState({ error: error.message, loading: false }));
    return () => {
      current = false;
    };
  }, [dataProvider, name, key, enabled]);
  return state;
}

export function CsvButton({
  name,
  query,
  label,
}: {
  name: ReportName;
  query: Record<string, string>;
  label: string;
}) {
  const dataProvider = useShopDataProvider();
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
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <Button variant="outlined" size="small" onClick={download}>
      {label}
    </Button>
  );
}

export function ReportCard({
  title,
  action,
  children,
}: {
  title: string;
  action: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card component="section" aria-label={title} sx={{ mb: 2 }}>
      <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} action={action} />
      <CardContent>{children}</CardContent>
    </Card>
  );
}

export function Rows<T>({
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

export function Pending({
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
