// The product import: choose a CSV file, read the dry run's report, run the import, watch its
// progress and download the rows in error (docs/import-export.md). Also the product list's export
// button, which downloads the list's current selection as the same CSV.
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Checkbox,
  FormControlLabel,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Title, useListContext, useNotify } from 'react-admin';
import { messageOf } from '../api-answer.ts';
import type { ImportReport } from '../catalog-io-calls.ts';
import { listQuery } from '../resource-calls.ts';
import { RESOURCES } from '../resources.ts';
import { useShopDataProvider } from '../use-shop-data-provider.ts';

const POLL_MS = 700;

/** Saves CSV text as a file, with the byte-order mark spreadsheets need to read UTF-8 (the text's own is dropped by decoding). */
function saveText(text: string, fileName: string): void {
  const marked = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
  const url = URL.createObjectURL(new Blob([marked], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Polls a job until it is over. */
function useImportJob(jobId: number | null) {
  const dataProvider = useShopDataProvider();
  const [report, setReport] = useState<ImportReport | null>(null);
  useEffect(() => {
    if (jobId === null) return;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const next = await dataProvider.importReport(jobId);
      if (!current) return;
      setReport(next);
      if (next.status === 'queued' || next.status === 'running') timer = setTimeout(poll, POLL_MS);
    };
    setReport(null);
    void poll();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [dataProvider, jobId]);
  return report;
}

function Figures({ report }: { report: ImportReport }) {
  const over = report.status === 'done' || report.status === 'failed';
  const share = report.total > 0 ? (100 * report.processed) / report.total : 0;
  const would = report.dryRun ? 'would be ' : '';
  return (
    <Box sx={{ my: 2 }}>
      {!over && <LinearProgress variant={report.total ? 'determinate' : 'indeterminate'} value={share} />}
      <Typography role="status" sx={{ mt: 1 }}>
        {report.dryRun ? 'Dry run' : 'Import'} {report.status}: {report.processed} of {report.total} rows;{' '}
        {report.created} {would}created, {report.updated} {would}updated, {report.unchanged} unchanged,{' '}
        {report.errors.length} in error.
      </Typography>
    </Box>
  );
}

function Problems({ report }: { report: ImportReport }) {
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  if (report.errors.length === 0) return null;
  const over = report.status === 'done' || report.status === 'failed';
  // The file's own rows, whole, with a column of problems: fixed, the file is imported again.
  const download = async () => {
    try {
      saveText(await dataProvider.rowsInError(report.id), `import-${report.id}-rows-in-error.csv`);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <>
      <Button variant="outlined" disabled={!over} onClick={download}>
        Download the rows in error
      </Button>
      <Table size="small" aria-label="Rows in error" sx={{ mt: 1 }}>
        <TableHead>
          <TableRow>
            <TableCell>Row</TableCell>
            <TableCell>Column</TableCell>
            <TableCell>Problem</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {report.errors.slice(0, 200).map((e) => (
            <TableRow key={`${e.row}-${e.column}-${e.message}`}>
              <TableCell>{e.row}</TableCell>
              <TableCell>{e.column}</TableCell>
              <TableCell>{e.message}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

export function ProductImport() {
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fetchImages, setFetchImages] = useState(false);
  const [jobId, setJobId] = useState<number | null>(null);
  const report = useImportJob(jobId);
  const start = async (dryRun: boolean) => {
    if (!file) return;
    try {
      setJobId(await dataProvider.startImport(file, { dryRun, fetchImages }));
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  const busy = report !== null && (report.status === 'queued' || report.status === 'running');
  const checked = report?.dryRun && report.status === 'done';
  return (
    <Card component="section" aria-label="Product import" sx={{ mt: 2 }}>
      <Title title="Product import" />
      <CardHeader title="Import products from CSV" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        <Typography sx={{ mb: 2 }}>
          WooCommerce's product export (or this shop's), UTF-8, with , or ; between cells. Rows are matched by SKU.
        </Typography>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setJobId(null);
          }}
        />
        <FormControlLabel
          sx={{ display: 'flex', mt: 1 }}
          control={<Checkbox checked={fetchImages} onChange={(event) => setFetchImages(event.target.checked)} />}
          label="Copy the images into the media library (fetched from their addresses)"
        />
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button variant="outlined" disabled={!file || busy} onClick={() => start(true)}>
            Check (dry run)
          </Button>
          <Button variant="contained" disabled={!file || busy || !checked} onClick={() => start(false)}>
            Run the import
          </Button>
        </Box>
        {report?.status === 'failed' && <Alert severity="error">The file could not be read to its end.</Alert>}
        {report && <Figures report={report} />}
        {report && <Problems report={report} />}
      </CardContent>
    </Card>
  );
}

/** The product list's export: its current filters, as the import's CSV. */
export function ExportProductsButton() {
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  const { filterValues } = useListContext();
  const download = async () => {
    try {
      const query = listQuery(RESOURCES.products, { filter: filterValues });
      saveText(await dataProvider.exportProducts(query), 'products.csv');
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <Button size="small" onClick={download}>
      Export CSV
    </Button>
  );
}
