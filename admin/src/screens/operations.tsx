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
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  type Identifier,
} from 'react-admin';
import { Alert, Button } from '@mui/material';
import { useEffect, useState } from 'react';
import { messageOf } from '../api-answer.ts';
import type { Webhook, WebhookDelivery } from '../api-types.ts';
import { useShopDataProvider } from '../use-shop-data-provider.ts';

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

/** The signing secret is answered only by create and rotate: it is shown once, here. */
function SecretOnce({ secret }: { secret: string }) {
  return (
    <Alert severity="info" role="status" sx={{ mb: 1 }}>
      Signing secret, shown only now — store it with the receiver: <code>{secret}</code>
    </Alert>
  );
}

/** Secrets answered by a create, kept in memory until the new webhook's page has shown them. */
const createdSecrets = new Map<string, string>();

export function WebhookCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  // Replaces react-admin's own success effects, so it notifies and redirects as they would.
  const onSuccess = (created: { id: Identifier; secret?: string }) => {
    if (created.secret) createdSecrets.set(String(created.id), created.secret);
    notify('ra.notification.created', { messageArgs: { smart_count: 1 } });
    redirect('show', 'webhooks', created.id);
  };
  return (
    <Create mutationOptions={{ onSuccess }}>
      <WebhookForm />
    </Create>
  );
}
export const WebhookEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <WebhookForm />
  </Edit>
);

/**
 * The secret answered by this webhook's create (kept until the page is left), replaced by the one
 * a rotation answers (POST …/rotate-secret: the old one stops verifying at once).
 */
function SigningSecret() {
  const hook = useRecordContext<Webhook>();
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  const [rotated, setRotated] = useState<string>();
  if (!hook) return null;
  const secret = rotated ?? createdSecrets.get(String(hook.id));
  const rotate = async () => {
    try {
      const { data } = await dataProvider.rotateWebhookSecret(hook.id);
      createdSecrets.set(String(hook.id), data.secret);
      setRotated(data.secret);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <>
      {secret ? <SecretOnce secret={secret} /> : null}
      <Button variant="outlined" onClick={rotate}>
        Rotate signing secret
      </Button>
    </>
  );
}

/** POST …/deliveries/{id}/retry for one delivery row (a dead one, or to send again). */
function RetryDelivery() {
  const delivery = useRecordContext<WebhookDelivery>();
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!delivery) return null;
  const retry = async () => {
    try {
      await dataProvider.retryWebhookDelivery(delivery.webhookId, delivery.id);
      notify('Delivery queued again', { type: 'info' });
      refresh();
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <Button size="small" onClick={retry} aria-label={`Retry delivery ${delivery.id}`}>
      Retry
    </Button>
  );
}

export function WebhookShow() {
  // The page's layout may mount again when the record is fetched anew; the secret is forgotten
  // only when the page itself is left.
  useEffect(() => () => createdSecrets.clear(), []);
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
            <FunctionField label="Actions" render={() => <RetryDelivery />} />
          </Datagrid>
        </ReferenceManyField>
        <SigningSecret />
      </SimpleShowLayout>
    </Show>
  );
}

export function MailList() {
  return (
    <List exporter={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField source="createdAt" label="Written" showTime sortable={false} />
        {/* Empty for a Developer: recipients and subjects are for Admin (docs/security.md). */}
        <TextField source="to" emptyText="—" sortable={false} />
        <TextField source="subject" emptyText="—" sortable={false} />
        <TextField source="template" sortable={false} />
        <TextField source="status" sortable={false} />
        <NumberField source="attempts" sortable={false} />
        <TextField source="error" emptyText="—" sortable={false} />
      </Datagrid>
    </List>
  );
}
