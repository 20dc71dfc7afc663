// Webhooks with their deliveries (system/webhook) and the mail outbox (system/mail): Developer, Admin.
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  Edit,
  FunctionField,
  List,
  NumberField,
  ReferenceManyField,
  required,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
} from 'react-admin';

const linesFormat = (values: unknown) => (Array.isArray(values) ? values.join('\n') : '');
const linesParse = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function WebhookList() {
  return (
    <List exporter={false}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" sortable={false} />
        <TextField source="url" label="URL" sortable={false} />
        <FunctionField
          label="Events"
          render={(hook: { events?: string[] }) => (hook.events ?? []).join(', ')}
        />
        <BooleanField source="active" sortable={false} />
      </Datagrid>
    </List>
  );
}

function WebhookForm() {
  return (
    <SimpleForm>
      <TextInput source="url" label="URL" validate={required()} fullWidth />
      <TextInput
        source="events"
        label="Events, one per line (order.placed, order.status_changed, …, or *)"
        multiline
        fullWidth
        format={linesFormat}
        parse={linesParse}
        validate={required()}
      />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

export const WebhookCreate = () => (
  <Create redirect="show">
    <WebhookForm />
  </Create>
);
export const WebhookEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <WebhookForm />
  </Edit>
);

export function WebhookShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="url" label="URL" />
        <FunctionField
          label="Events"
          render={(hook: { events?: string[] }) => (hook.events ?? []).join(', ')}
        />
        <BooleanField source="active" />
        <ReferenceManyField label="Deliveries" reference="webhookDeliveries" target="webhookId" perPage={25}>
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>No deliveries yet.</span>}>
            <TextField source="id" sortable={false} />
            <TextField source="eventType" label="Event" sortable={false} />
            <TextField source="status" sortable={false} />
            <NumberField source="attempts" sortable={false} />
            <NumberField source="responseCode" label="Response" emptyText="—" sortable={false} />
            <TextField source="error" emptyText="—" sortable={false} />
            <DateField source="nextAttemptAt" label="Next attempt" showTime emptyText="—" sortable={false} />
          </Datagrid>
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
}

export function MailList() {
  return (
    <List exporter={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField source="createdAt" label="Written" showTime sortable={false} />
        <TextField source="to" sortable={false} />
        <TextField source="subject" sortable={false} />
        <TextField source="template" sortable={false} />
        <TextField source="status" sortable={false} />
        <NumberField source="attempts" sortable={false} />
        <TextField source="error" emptyText="—" sortable={false} />
      </Datagrid>
    </List>
  );
}
