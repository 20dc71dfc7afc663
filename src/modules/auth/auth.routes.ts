import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, customerIdOf } from '../../http/access.ts';
import { Envelope, ok, SuccessOnly, okOnly } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { cartTokenAtLogin } from '../cart/cart.api.ts';
import { mergeGuestCartAtLogin } from '../cart/cart.service.ts';
import {
  AccessTokenOnly,
  AdminProfile,
  CustomerProfile,
  DeviceTokenHeaders,
  LoginBody,
  type LoginBodyType,
  PasswordChangeBody,
  RefreshBody,
  RegisterBody,
  TokenPair,
} from './auth.schemas.ts';
import {
  type AuthDeps,
  adminProfile,
  changeCustomerPassword,
  loginAdmin,
  loginCustomer,
  logout,
  refreshAccess,
  registerCustomer,
} from './auth.service.ts';
import { normaliseLogin } from './email.ts';
import { type LoginLimits, loginLimits } from './login-limits.ts';
import { perIpLimit } from '../../http/rate-limit.ts';
import { selfServiceRoutes } from './self-service.routes.ts';
import type { AuthContext } from './tokens.ts';
import { customerProfile } from './customer-profile.ts';

const CONTEXTS: AuthContext[] = ['admin', 'customer'];

/** `username`, or `email` in its place; one of them is required. */
function loginName(body: LoginBodyType): string {
  const name = body.username ?? body.email;
  if (name === undefined) {
    throw new AppError('VALIDATION_FAILED', 'username is required', [
      { field: 'username', message: 'is required' },
    ]);
  }
  return name;
}

/** The account a login names, as the failure counters key it. */
function accountKey(body: LoginBodyType): string {
  return normaliseLogin(body.username ?? body.email ?? '');
}

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];
const tags = ['auth'];

/** Login of one context, counted by its limits; a customer's guest cart follows. */
function loginRoute(app: TypedApp, deps: AuthDeps, ctx: AuthContext, limits: LoginLimits): void {
  const login = ctx === 'admin' ? loginAdmin : loginCustomer;
  app.post(
    `/rest/auth/${ctx}/login`,
    {
      schema: {
        tags,
        operationId: ctx === 'admin' ? 'adminLogin' : 'login',
        'x-body-name': 'TokenPair',
        'x-header-parameters': ctx === 'customer' ? [cartTokenAtLogin] : [],
        summary: `Log in (${ctx})`,
        headers: DeviceTokenHeaders,
        body: LoginBody,
        response: { 200: TokenPair },
      },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'loginPerIp') },
    },
    async (request, reply) => {
      const account = accountKey(request.body);
      const pair = await limits.guard(request, reply)(account, () =>
        login(deps, loginName(request.body), request.body.password),
      );
      // A guest's cart follows the customer who logs in with its X-Cart-Token (src/modules/cart).
      if (ctx === 'customer') {
        const { sub } = await deps.sessions.authenticate(pair.access_token);
        await mergeGuestCartAtLogin(deps, request.headers['x-cart-token'], Number(sub));
      }
      return { ...pair, device_token: await limits.deviceToken(account) };
    },
  );
}

/** Refresh and logout of one context: the refresh token is the credential. */
function refreshRoutes(app: TypedApp, deps: AuthDeps, ctx: AuthContext): void {
  app.post(
    `/rest/auth/${ctx}/refresh`,
    {
      schema: {
        tags,
        operationId: ctx === 'admin' ? 'adminRefreshToken' : 'refreshToken',
        'x-body-name': 'AccessToken',
        summary: `New access token (${ctx})`,
        body: RefreshBody,
        response: { 200: AccessTokenOnly },
      },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'refreshPerIp') },
    },
    async (request) => refreshAccess(deps, ctx, request.body.refresh_token),
  );

  app.post(
    `/rest/auth/${ctx}/logout`,
    {
      schema: {
        tags,
        operationId: ctx === 'admin' ? 'adminLogout' : 'logout',
        summary: `Revoke a refresh token (${ctx})`,
        body: RefreshBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'refreshPerIp') },
    },
    async (request) => {
      await logout(deps, ctx, request.body.refresh_token);
      return okOnly();
    },
  );
}

function profileRoutes(app: TypedApp, deps: AuthDeps): void {
  app.get(
    '/rest/auth/admin/me',
    {
      schema: {
        tags,
        operationId: 'getCurrentAdmin',
        summary: 'The logged-in admin',
        response: { 200: Envelope(AdminProfile) },
      },
      config: { access: access.admin() },
    },
    async (request) => {
      const caller = request.caller;
      if (caller.kind !== 'admin') throw new AppError('FORBIDDEN', 'this operation needs an admin token');
      return ok(await adminProfile(deps, caller.sub));
    },
  );

  app.get(
    '/rest/auth/customer/me',
    {
      schema: {
        tags,
        operationId: 'getCurrentCustomer',
        summary: 'The logged-in customer',
        response: { 200: Envelope(CustomerProfile) },
      },
      config: { access: access.customer() },
    },
    async (request) => ok(await customerProfile(deps.db, customerIdOf(request.caller))),
  );
}

function customerAccountRoutes(app: TypedApp, deps: AuthDeps, limits: LoginLimits): void {
  app.post(
    '/rest/auth/customer/register',
    {
      schema: {
        tags,
        operationId: 'register',
        'x-body-name': 'TokenPair',
        summary: 'Register a customer and log in',
        body: RegisterBody,
        response: { 201: TokenPair, 409: errorResponse(409) },
      },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'registerPerIp') },
    },
    async (request, reply) => {
      // Only the known fields go on: anything else in the body is ignored, never stored.
      const { email, password, firstName, lastName, phone, newsletter, locale } = request.body;
      const pair = await registerCustomer(deps, {
        email,
        password,
        firstName,
        lastName,
        phone,
        newsletter,
        locale,
      });
      // As at login: the guest's cart becomes the new customer's.
      const { sub } = await deps.sessions.authenticate(pair.access_token);
      await mergeGuestCartAtLogin(deps, request.headers['x-cart-token'], Number(sub));
      const device_token = await limits.deviceToken(normaliseLogin(email));
      return reply.status(201).send({ ...pair, device_token });
    },
  );

  app.post(
    '/rest/auth/customer/password',
    {
      schema: {
        tags,
        operationId: 'changePassword',
        summary: 'Change the password',
        headers: DeviceTokenHeaders,
        body: PasswordChangeBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.customer() },
    },
    async (request, reply) => {
      const { currentPassword, newPassword } = request.body;
      const guard = limits.guard(request, reply);
      await changeCustomerPassword(deps, customerIdOf(request.caller), currentPassword, newPassword, guard);
      return okOnly();
    },
  );
}

/** The authentication endpoints of both contexts (src/modules/auth/README.md). */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps: AuthDeps = { db: app.db, tokens: app.tokens, sessions: app.sessions, config: app.config };
  // Tokens and profiles: never kept by a cache.
  app.addHook('onSend', neverStored);
  // One set of counters per context, shared by its login and its checks of the current password.
  const limits = {
    admin: loginLimits(app, app.tokens, 'admin'),
    customer: loginLimits(app, app.tokens, 'customer'),
  };
  for (const ctx of CONTEXTS) {
    loginRoute(app, deps, ctx, limits[ctx]);
    refreshRoutes(app, deps, ctx);
  }
  profileRoutes(app, deps);
  customerAccountRoutes(app, deps, limits.customer);
  selfServiceRoutes(app, deps, limits);
};
