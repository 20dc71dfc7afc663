// Settings (system/setting, PUT by key) and back-office users (system/admin-user).
import { Box, Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import {
  BooleanField,
  BooleanInput,
  CheckboxGroupInput,
  Create,
  Datagrid,
  DateField,
  Edit,
  EmailField,
  FunctionField,
  List,
  NumberInput,
  PasswordInput,
  required,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  SaveButton,
  useRecordContext,
  Link,
  useListContext,
  useNotify,
  usePermissions,
} from 'react-admin';
import { messageOf } from '../api-answer.ts';
import type { AdminUser } from '../api-types.ts';
import { useShopDataProvider } from '../use-shop-data-provider.ts';
import { holdsAnyRole, ROLES, type RoleId } from '../roles.ts';

const showValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The storefront-config sections (GET /rest/storefront-config), by the settings' key prefixes. */
const SECTIONS: { title: string; prefixes: string[] }[] = [
  { title: 'Listing', prefixes: ['products_list_', 'rest_max_page_size'] },
  { title: 'Loyalty', prefixes: ['loyalty_'] },
  { title: 'Shipping', prefixes: ['free_shipping_'] },
  { title: 'Tax and B2B', prefixes: ['tax_mode', 'shop_country', 'b2b_'] },
  { title: 'Video showcase', prefixes: ['video_'] },
  { title: 'Price tracking', prefixes: ['price_tracking_'] },
  { title: 'App update', prefixes: ['app_'] },
  { title: 'Home', prefixes: ['home_'] },
];

interface SettingRow {
  id: string;
  key: string;
  value: unknown;
  source: string;
  description: string;
}

function sectionOf(key: string): string {
  return (
    SECTIONS.find((section) => section.prefixes.some((prefix) => key.startsWith(prefix)))?.title ?? 'Other'
  );
}

function SettingSections() {
  const { data = [], isPending } = useListContext<SettingRow>();
  if (isPending) return null;
  const titles = [...SECTIONS.map((section) => section.title), 'Other'];
  return (
    <Box sx={{ p: 2 }}>
      {titles.map((title) => {
        const rows = data.filter((setting) => sectionOf(setting.key) === title);
        if (rows.length === 0) return null;
        return (
          <Box component="section" key={title} sx={{ mb: 3 }} aria-labelledby={`settings-${title}`}>
            <Typography component="h2" variant="h6" id={`settings-${title}`}>
              {title}
            </Typography>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Key</TableCell>
                  <TableCell>Value</TableCell>
                  <TableCell>Source</TableCell>
                  <TableCell>Description</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((setting) => (
                  <TableRow key={setting.key}>
                    <TableCell>
                      <Link to={`/settings/${encodeURIComponent(setting.key)}`}>{setting.key}</Link>
                    </TableCell>
                    <TableCell>
                      <code style={{ wordBreak: 'break-all' }}>{showValue(setting.value)}</code>
                    </TableCell>
                    <TableCell>{setting.source}</TableCell>
                    <TableCell>{setting.description}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        );
      })}
    </Box>
  );
}

export function SettingList() {
  return (
    <List pagination={false} perPage={1000} exporter={false}>
      <SettingSections />
    </List>
  );
}

/** An input of the setting's own type, judged by its default value. */
function SettingValueInput() {
  const setting = useRecordContext();
  const sample = setting?.defaultValue ?? setting?.value;
  if (typeof sample === 'boolean') return <BooleanInput source="value" label="Value" />;
  if (typeof sample === 'number') return <NumberInput source="value" label="Value" />;
  if (typeof sample === 'string') return <TextInput source="value" label="Value" fullWidth />;
  return (
    <TextInput
      source="value"
      label="Value (JSON)"
      multiline
      fullWidth
      format={(value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2))}
      parse={(text: string) => {
        try {
          return JSON.parse(text);
        } catch {
          return text;
        }
      }}
      validate={(value: unknown) => (typeof value === 'string' ? 'Not valid JSON' : undefined)}
    />
  );
}

export function SettingEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <SimpleForm
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        <TextField source="key" />
        <TextField source="description" />
        <SettingValueInput />
      </SimpleForm>
    </Edit>
  );
}

const roleChoices = ROLES.map((role) => ({ id: role.id, name: `${role.name} (${role.id})` }));

/**
 * The roles this admin may grant or withdraw: only those it holds (a Superuser holds them all).
 * The API refuses the others anyway (docs/security.md); the form shows them disabled.
 */
function RolesInput({ isRequired = false }: { isRequired?: boolean }) {
  const { permissions } = usePermissions<number[]>();
  const held = permissions ?? [];
  const grantable = (id: RoleId) => holdsAnyRole(held, [id]);
  const choices = roleChoices.map((choice) => ({ ...choice, disabled: !grantable(choice.id) }));
  return (
    <CheckboxGroupInput
      source="roles"
      choices={choices}
      disableValue="disabled"
      validate={isRequired ? required() : undefined}
      helperText="You can grant or withdraw only the roles you hold."
    />
  );
}
const roleNames = (ids: number[] = []) =>
  ids.map((id) => ROLES.find((role) => role.id === id)?.name ?? String(id)).join(', ');

export function AdminUserList() {
  return (
    <List exporter={false}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="id" sortable={false} />
        <EmailField source="username" label="Username" sortable={false} />
        <TextField source="name" sortable={false} />
        <FunctionField label="Roles" render={(user: { roles?: number[] }) => roleNames(user.roles)} />
        <BooleanField source="active" sortable={false} />
        <DateField source="createdAt" label="Created" sortable={false} />
      </Datagrid>
    </List>
  );
}

/** An emptied password field means "invite": the API then e-mails the user a code. */
const withoutEmptyPassword = ({ password, ...user }: { password?: string | null }) =>
  password ? { ...user, password } : user;

export function AdminUserCreate() {
  return (
    <Create transform={withoutEmptyPassword}>
      <SimpleForm>
        <TextInput source="username" label="Username (e-mail)" type="email" validate={required()} />
        <PasswordInput
          source="password"
          autoComplete="new-password"
          helperText="Leave empty to e-mail an invitation: the user then chooses the password."
        />
        <TextInput source="name" />
        <RolesInput isRequired />
        <BooleanInput source="active" defaultValue={true} />
      </SimpleForm>
    </Create>
  );
}

export function AdminUserEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <SimpleForm>
        <TextField source="username" />
        <TextInput source="name" />
        <RolesInput />
        <BooleanInput source="active" />
        <SendPasswordReset />
      </SimpleForm>
    </Edit>
  );
}

/**
 * Nobody sets another user's password: the user is e-mailed a code and chooses it on the login
 * page (docs/security.md).
 */
function SendPasswordReset() {
  const user = useRecordContext<AdminUser>();
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  if (!user) return null;
  const send = async () => {
    try {
      await dataProvider.sendAdminPasswordReset(user.id);
      notify(`Password reset e-mail sent to ${user.username}`, { type: 'info' });
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <Button variant="outlined" onClick={send}>
      Send password reset e-mail
    </Button>
  );
}
