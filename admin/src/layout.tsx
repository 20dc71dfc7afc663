import { Box, Button, TextField, Typography } from '@mui/material';
import { type FormEvent, type ReactNode, useState } from 'react';
import {
  AppBar,
  defaultTheme,
  Layout,
  Login,
  LoginForm,
  type RaThemeOptions,
  TitlePortal,
  UserMenu,
  useGetIdentity,
  useNotify,
} from 'react-admin';
import { messageOf } from './api-answer.ts';
import { useShopDataProvider } from './use-shop-data-provider.ts';

/**
 * react-admin's default theme with darker blues and a darker empty-list message: the defaults fall
 * short of the 4.5:1 contrast that axe-core asks for (white on #2196f3 in the app bar, #1976d2
 * labels on grey fields, #d32f2f on the grey form toolbar).
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#1565c0' },
    secondary: { main: '#0d47a1' },
    // The Delete button's red on the grey form toolbar is 3.8:1 with MUI's #d32f2f.
    error: { main: '#b71c1c' },
  },
  components: {
    ...defaultTheme.components,
    // An empty list's message is drawn in the "disabled" text colour by default (2.7:1).
    RaEmpty: { styleOverrides: { root: { '& .RaEmpty-message': { color: 'rgba(0, 0, 0, 0.7)' } } } },
    // The empty-list message is an h4 right under the page's h1; as an h2 the outline has no gap.
    MuiTypography: { defaultProps: { variantMapping: { h4: 'h2' } } },
    // Loading bars and spinners get an accessible name.
    MuiLinearProgress: { defaultProps: { 'aria-label': 'Loading' } },
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
  } as RaThemeOptions['components'],
};

/** The account menu's button is named after the admin it shows (its visible text). */
function AccountMenu() {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName ?? 'Account'} />;
}

/** The page title (set by each screen) is the page's one h1. */
function ShopAppBar() {
  return (
    <AppBar userMenu={<AccountMenu />}>
      <TitlePortal component="h1" />
    </AppBar>
  );
}

/**
 * Nobody sets another admin's password: an invited user, or one whose reset an Admin asked for,
 * chooses it here with the code the e-mail brought, then logs in with it.
 */
function ChoosePassword() {
  const dataProvider = useShopDataProvider();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  if (!open) {
    return (
      <Button onClick={() => setOpen(true)} sx={{ m: 1 }}>
        Choose a password with an e-mailed code
      </Button>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await dataProvider.chooseAdminPassword(code.trim(), password);
      notify('Password chosen: log in with it', { type: 'info' });
      setOpen(false);
    } catch (error) {
      notify(messageOf(error), { type: 'error' });
    }
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <TextField
        label="Code from the e-mail"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        required
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
        slotProps={{ htmlInput: { minLength: 8, maxLength: 128 } }}
      />
      <Button type="submit" variant="contained">
        Set the password
      </Button>
    </Box>
  );
}

/** react-admin's login card inside a main landmark, with the application's name as its h1. */
export function ShopLogin() {
  return (
    <Box component="main">
      <Login>
        <Typography component="h1" variant="h6" sx={{ textAlign: 'center', mt: 1 }}>
          Shop back office
        </Typography>
        <LoginForm />
        <ChoosePassword />
      </Login>
    </Box>
  );
}

export function ShopLayout({ children }: { children: ReactNode }) {
  return <Layout appBar={ShopAppBar}>{children}</Layout>;
}
