import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, customerIdOf } from '../../http/access.ts';
import { Envelope, ok, SuccessOnly } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { mergeGuestCartAtLogin } from '../cart/cart.service.ts';
import {
  AccessTokenOnly,
  AdminProfile,
  CustomerProfile,
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
  customerProfile,
  loginAdmin,
  loginCustomer,
  logout,
  normaliseLogin,
  refreshAccess,
  registerCustomer,
} from './auth.service.ts';
import { loginLimits } from './login-limits.ts';
import { perIpLimit, perKeyLimit } from '../../http/rate-limit.ts';
import type { AuthContext } from './tokens.ts';

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

/** Login, refresh and logout of one context. */
function sessionRoutes(app: TypedApp, deps: AuthDeps, ctx: AuthContext): void {
  const login = ctx === 'admin' ? loginAdmin : loginCustomer;
  const limits = loginLimits(app, ctx, accountKey);
  app.post(
    `/rest/auth/${ctx}/login`,
    {
      schema: { tags, summary: `Log in (${ctx})`, body: LoginBody, response: { 200: TokenPair } },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'loginPerIp') },
      preHandler: limits.check,
    },
    async (request) => {
      const pair = await limits.attempt(request, () =>
        login(deps, loginName(request.body), request.body.password),
      );
      // A guest's cart follows the customer who logs in with its X-Cart-Token (src/modules/cart).
      if (ctx === 'customer') {
        const { sub } = await deps.sessions.authenticate(pair.access_token);
        await mergeGuestCartAtLogin(deps, request.headers['x-cart-token'], Number(sub));
      }
      return pair;
    },
  );

  app.post(
    `/rest/auth/${ctx}/refresh`,
    {
      schema: {
        tags,
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
        summary: `Revoke a refresh token (${ctx})`,
        body: RefreshBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'refreshPerIp') },
    },
    async (request) => {
      await logout(deps, ctx, request.body.refresh_token);
      return { success: true as const };
    },
  );
}

function profileRoutes(app: TypedApp, deps: AuthDeps): void {
  app.get(
    '/rest/auth/admin/me',
    {
      schema: { tags, summary: 'The logged-in admin', response: { 200: Envelope(AdminProfile) } },
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
      schema: { tags, summary: 'The logged-in customer', response: { 200: Envelope(CustomerProfile) } },
      config: { access: access.customer() },
    },
    async (request) => ok(await customerProfile(deps, customerIdOf(request.caller))),
  );
}

function customerAccountRoutes(app: TypedApp, deps: AuthDeps): void {
  app.post(
    '/rest/auth/customer/register',
    {
      schema: {
        tags,
        summary: 'Register a customer and log in',
        body: RegisterBody,
        response: { 201: TokenPair, 409: errorResponse(409) },
      },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'registerPerIp') },
    },
    async (request, reply) => {
      // Only the known fields go on: anything else in the body is ignored, never stored.
      const { email, password, firstName, lastName, phone, newsletter } = request.body;
      const pair = await registerCustomer(deps, { email, password, firstName, lastName, phone, newsletter });
      // As at login: the guest's cart becomes the new customer's.
      const { sub } = await deps.sessions.authenticate(pair.access_token);
      await mergeGuestCartAtLogin(deps, request.headers['x-cart-token'], Number(sub));
      return reply.status(201).send(pair);
    },
  );

  app.post(
    '/rest/auth/customer/password',
    {
      schema: {
        tags,
        summary: 'Change the password',
        body: PasswordChangeBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.customer() },
      preHandler: perKeyLimit(app, 'loginPerAccount', 'password:customer', (request) =>
        String(customerIdOf(request.caller)),
      ),
    },
    async (request) => {
      const { currentPassword, newPassword } = request.body;
      await changeCustomerPassword(deps, customerIdOf(request.caller), currentPassword, newPassword);
      return { success: true as const };
    },
  );
}

/** The authentication endpoints of both contexts (src/modules/auth/README.md). */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps: AuthDeps = { db: app.db, tokens: app.tokens, sessions: app.sessions, config: app.config };
  // Tokens and profiles: never kept by a cache.
  app.addHook('onSend', neverStored);
  for (const ctx of CONTEXTS) sessionRoutes(app, deps, ctx);
  profileRoutes(app, deps);
  customerAccountRoutes(app, deps);
};
