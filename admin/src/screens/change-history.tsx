import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import { useCanAccess, useGetList } from 'react-admin';

interface AuditRow {
  id: number;
  at: string;
  actor: string;
  action: string;
  changes: Record<string, { before: unknown; after: unknown }>;
}

const shown = (value: unknown) => (value === null || value === undefined ? '—' : String(value));

/** The log keeps every field an admin writes; this panel is the price and stock history. */
const TRACKED = ['price', 'stockQty'];

function tracked(entry: AuditRow): [string, { before: unknown; after: unknown }][] {
  return Object.entries(entry.changes).filter(([field]) => TRACKED.includes(field));
}

/**
 * Price and stock changes of one product or variant, from the audit log (GET /rest/system/audit,
 * Admin): the price history the back office can show. Hidden from roles that cannot read the log.
 */
export function ChangeHistory({ entity, entityId }: { entity: string; entityId: unknown }) {
  const { canAccess } = useCanAccess({ resource: 'audit', action: 'list' });
  const { data = [], isPending } = useGetList<AuditRow>(
    'audit',
    { pagination: { page: 1, perPage: 20 }, filter: { entity, entityId: String(entityId) } },
    { enabled: canAccess === true && entityId !== undefined },
  );
  if (!canAccess) return null;
  const entries = data.filter((entry) => tracked(entry).length > 0);
  return (
    <Card component="section" aria-label="Price and stock history" sx={{ mt: 2 }}>
      <CardHeader title="Price and stock history" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        {isPending ? (
          <Typography>Loading…</Typography>
        ) : entries.length === 0 ? (
          <Typography>No change recorded yet.</Typography>
        ) : (
          <ul>
            {entries.map((entry) => (
              <li key={entry.id}>
                {new Date(entry.at).toLocaleString()} · {entry.actor} ·{' '}
                {tracked(entry)
                  .map(([field, change]) => `${field}: ${shown(change.before)} → ${shown(change.after)}`)
                  .join('; ')}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
