import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, customerIdOf } from '../../http/access.ts';
import { Envelope, ok, SuccessOnly, okOnly } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { errorResponse } from '../../http/openapi.ts';
import { CustomerProfile, DeviceTokenHeaders } from './auth.schemas.ts';
import type { AuthDeps } from './auth.service.ts';
import { normaliseLogin } from './email.ts';
import { type LimitCounter, limitCounter } from '../../http/limit-counter.ts';
import type { LoginLimits } from './login-limits.ts';
import type { AuthContext } from './tokens.ts';
import {
  Accepted,
  AdminPasswordBody,
  PasswordResetBody,
  PasswordResetConfirmBody,
  ProfileUpdateBody,
  VerifyEmailBody,
} from './self-service.schemas.ts';
import {
  changeAdminPassword,
  confirmPasswordReset,
  requestPasswordReset,
  updateOwnProfile,
  verifyEmail,
} from './self-service.service.ts';
import { confirmAdminPasswordReset } from './admin-codes.ts';

/** Reset requests are counted per hour, whatever the window of the other limits. */
const RESET_WINDOW_SECONDS = 3600;

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];
const tags = ['auth'];

interface ResetCounters {
  perEmail: LimitCounter;
  perIp: LimitCounter;
}

/** A customer changes the own profile; a new e-mail needs the current password. */
function profileChangeRoute(app: TypedApp, deps: AuthDeps, limits: Record<AuthContext, LoginLimits>): void {
  app.patch(
    '/rest/auth/customer/me',
    {
      schema: {
        tags,
        operationId: 'updateCurrentCustomer',
        summary: 'Change the own profile; a new email needs currentPassword',
        headers: DeviceTokenHeaders,
        body: ProfileUpdateBody,
        response: { 200: Envelope(CustomerProfile), 409: errorResponse(409) },
      },
      config: { access: access.customer() },
    },
    async (request, reply) => {
      const guard = limits.customer.guard(request, reply);
      return ok(await updateOwnProfile(deps, customerIdOf(request.caller), request.body, guard));
    },
  );
}

/** A customer's password reset: the code asked for, and used. */
function customerCodeRoutes(app: TypedApp, resets: ResetCounters): void {
  app.post(
    '/rest/auth/customer/password-reset',
    {
      schema: {
        tags,
        operationId: 'requestPasswordReset',
        summary: 'E-mail a password-reset code (202 whatever the address)',
        body: PasswordResetBody,
        response: { 202: Accepted },
      },
      config: { access: access.public() },
      preHandler: async (request, reply) => {
        await resets.perIp.take(request.ip, reply);
        await resets.perEmail.take(normaliseLogin(request.body.email), reply);
      },
    },
    async (request, reply) => {
      await requestPasswordReset(app.db, app.config, request.body.email);
      return reply.code(202).send(okOnly());
    },
  );

  app.post(
    '/rest/auth/customer/password-reset/confirm',
    {
      schema: {
        tags,
        operationId: 'confirmPasswordReset',
        summary: 'Set a new password with the e-mailed code; every session ends',
        body: PasswordResetConfirmBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.public() },
      preHandler: (request, reply) => resets.perIp.take(request.ip, reply),
    },
    async (request) => {
      await confirmPasswordReset(app.db, request.body.token, request.body.password);
      return okOnly();
    },
  );
}

function verifyEmailRoute(app: TypedApp, resets: ResetCounters): void {
  app.post(
    '/rest/auth/customer/verify-email',
    {
      schema: {
        tags,
        operationId: 'verifyEmail',
        summary: 'Confirm the e-mail address with the e-mailed code',
        body: VerifyEmailBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.public() },
      preHandler: (request, reply) => resets.perIp.take(request.ip, reply),
    },
    async (request) => {
      await verifyEmail(app.db, request.body.token);
      return okOnly();
    },
  );
}

/** An admin chooses the password with an e-mailed code, or changes it. */
function adminPasswordRoutes(
  app: TypedApp,
  limits: Record<AuthContext, LoginLimits>,
  resets: ResetCounters,
): void {
  app.post(
    '/rest/auth/admin/password-reset/confirm',
    {
      schema: {
        tags,
        operationId: 'adminPasswordResetConfirm',
        summary: 'Choose the password with an e-mailed invitation or reset code; every session ends',
        body: PasswordResetConfirmBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.public() },
      preHandler: (request, reply) => resets.perIp.take(request.ip, reply),
    },
    async (request) => {
      await confirmAdminPasswordReset(app.db, request.body.token, request.body.password);
      return okOnly();
    },
  );

  app.post(
    '/rest/auth/admin/password',
    {
      schema: {
        tags,
        operationId: 'adminChangePassword',
        summary: 'Change the own password (database admins); every session ends',
        headers: DeviceTokenHeaders,
        body: AdminPasswordBody,
        response: { 200: SuccessOnly, 422: errorResponse(422) },
      },
      config: { access: access.admin(), audit: { entity: 'admin_user' } },
    },
    async (request, reply) => {
      const caller = request.caller;
      if (caller.kind !== 'admin') throw new AppError('FORBIDDEN', 'this operation needs an admin token');
      const { currentPassword, newPassword } = request.body;
      const guard = limits.admin.guard(request, reply);
      await changeAdminPassword(app.db, caller.sub, currentPassword, newPassword, guard);
      return okOnly();
    },
  );
}

/**
 * Customer self-service (profile, password reset, e-mail verification) and the admin's own
 * password, registered by the authentication plugin (auth.routes.ts), whose login limits the
 * checks of the current password share.
 */
export function selfServiceRoutes(
  app: TypedApp,
  deps: AuthDeps,
  limits: Record<AuthContext, LoginLimits>,
): void {
  const resets: ResetCounters = {
    perEmail: limitCounter(app, 'passwordResetPerEmail', 'password-reset:email', RESET_WINDOW_SECONDS),
    perIp: limitCounter(app, 'passwordResetPerIp', 'password-reset:ip', RESET_WINDOW_SECONDS),
  };
  profileChangeRoute(app, deps, limits);
  customerCodeRoutes(app, resets);
  verifyEmailRoute(app, resets);
  adminPasswordRoutes(app, limits, resets);
}
