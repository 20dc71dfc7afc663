import { Datagrid, DateField, FunctionField, List, TextField, TextInput } from 'react-admin';

const auditFilters = [
  <TextInput key="entity" source="entity" label="Entity (order, product, variant, setting…)" alwaysOn />,
  <TextInput key="entityId" source="entityId" label="Entity id" alwaysOn />,
  <TextInput key="actor" source="actor" label="Actor" />,
];

const shown = (value: unknown) =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** Back-office writes, newest first (GET /rest/system/audit, Admin): who changed what, before and after. */
export function AuditList() {
  return (
    <List filters={auditFilters} perPage={50} sort={{ field: 'id', order: 'DESC' }} exporter={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField source="at" label="When" showTime sortable={false} />
        <TextField source="actor" sortable={false} />
        <TextField source="action" sortable={false} />
        <TextField source="entity" sortable={false} />
        <TextField source="entityId" label="Id" sortable={false} />
        <FunctionField
          label="Changes"
          render={(entry: { changes?: Record<string, { before: unknown; after: unknown }> }) =>
            Object.entries(entry.changes ?? {})
              .map(([field, change]) => `${field}: ${shown(change.before)} → ${shown(change.after)}`)
              .join('; ') || '—'
          }
        />
      </Datagrid>
    </List>
  );
}
