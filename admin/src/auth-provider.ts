// react-admin's auth provider: logs in with the admin context (POST /rest/auth/admin/login), keeps
// the token pair in localStorage, lets the typed client refresh it (POST /rest/auth/admin/refresh
// on 401 TOKEN_EXPIRED), and reads the admin's name and roles from GET /rest/auth/admin/me. The
// device token of the last login is kept apart and survives logout: the typed client sends it at
// the next login, which strangers' failed logins then do not refuse (docs/security.md).
import { createShopClient, type Session, type ShopClient } from '../../packages/client/src/index.ts';
import { ApiError } from './data-provider.ts';
import { canAccess } from './resources.ts';

export interface AdminIdentity {
  id: string | number;
  username: string;
  name: string | null;
  roles: number[];
}

export interface SessionStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const SESSION_KEY = 'shop-admin-session';
const IDENTITY_KEY = 'shop-admin-identity';
const DEVICE_KEY = 'shop-admin-device';

function read<T>(store: SessionStore, key: string): T | undefined {
  try {
    const text = store.getItem(key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** One client for the whole back office, its session kept in `store` across reloads. */
export function createAdminClient(baseUrl: string, store: SessionStore): ShopClient {
  return createShopClient({
    baseUrl,
    context: 'admin',
    session: { ...read<Session>(store, SESSION_KEY), deviceToken: store.getItem(DEVICE_KEY) ?? undefined },
    onSessionChange: (session) => {
      if (session.deviceToken) store.setItem(DEVICE_KEY, session.deviceToken);
      if (session.refreshToken) store.setItem(SESSION_KEY, JSON.stringify(session));
      else store.removeItem(SESSION_KEY);
    },
  });
}

export function createAuthProvider(client: ShopClient, store: SessionStore) {
  let identity = read<AdminIdentity>(store, IDENTITY_KEY);

  async function loadIdentity(): Promise<AdminIdentity> {
    const result = await client.api.GET('/rest/auth/admin/me');
    if (!result.response.ok || !result.data)
      throw new ApiError(result.response.status, 'UNAUTHENTICATED', 'Not logged in', null);
    identity = result.data.data;
    store.setItem(IDENTITY_KEY, JSON.stringify(identity));
    return identity;
  }

  function forget() {
    identity = undefined;
    store.removeItem(IDENTITY_KEY);
    store.removeItem(SESSION_KEY);
  }

  return {
    async login({ username, password }: { username: string; password: string }) {
      await client.login(username, password);
      await loadIdentity();
    },
    async logout() {
      try {
        if (client.session.refreshToken) await client.logout();
      } catch {
        // The session may be gone already; the local copy is forgotten either way.
      }
      forget();
    },
    async checkAuth() {
      if (!client.session.refreshToken) throw new Error('Not logged in');
      if (!identity) await loadIdentity();
    },
    async checkError(error: { status?: number }) {
      if (error?.status === 401) {
        forget();
        throw new Error('The session has ended; log in again');
      }
      // 403 and the rest: stay logged in and show the message.
    },
    async getIdentity() {
      const me = identity ?? (await loadIdentity());
      return { id: me.id, fullName: me.name ?? me.username };
    },
    async getPermissions() {
      return (identity ?? (await loadIdentity())).roles;
    },
    async canAccess({ resource, action }: { resource: string; action: string }) {
      if (!client.session.refreshToken) return false;
      const me = identity ?? (await loadIdentity());
      return canAccess(me.roles, resource, action);
    },
  };
}
