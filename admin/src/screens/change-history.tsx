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
  return (
    <Card component="section" aria-label="Price and stock history" sx={{ mt: 2 }}>
      <CardHeader title="Price and stock history" slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent>
        {isPending ? (
          <Typography>Loading…</Typography>
        ) : data.length === 0 ? (
          <Typography>No change recorded yet.</Typography>
        ) : (
          <ul>
            {data.map((entry) => (
              <li key={entry.id}>
                {new Date(entry.at).toLocaleString()} · {entry.actor} ·{' '}
                {Object.entries(entry.changes)
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
