import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, customerIdOf } from '../../http/access.ts';
import { Envelope, ok, SuccessOnly } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { CustomerProfile } from './auth.schemas.ts';
import type { AuthDeps } from './auth.service.ts';
import { limitCounter } from '../../http/limit-counter.ts';
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

/** Reset requests are counted per hour, whatever the window of the other limits. */
const RESET_WINDOW_SECONDS = 3600;

/** Customer self-service (profile, password reset, e-mail verification) and the admin's own password. */
export const selfServiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['auth'];
  const deps: AuthDeps = { db: app.db, tokens: app.tokens, sessions: app.sessions, config: app.config };
  app.addHook('onSend', neverStored);
  const resetsPerEmail = limitCounter(
    app,
    'passwordResetPerEmail',
    'password-reset:email',
    RESET_WINDOW_SECONDS,
  );
  const resetsPerIp = limitCounter(app, 'passwordResetPerIp', 'password-reset:ip', RESET_WINDOW_SECONDS);

  app.patch(
    '/rest/auth/customer/me',
    {
      schema: {
        tags,
        summary: 'Change the own profile; a new email needs currentPassword',
        body: ProfileUpdateBody,
        response: { 200: Envelope(CustomerProfile), 409: errorResponse(409) },
      },
      config: { access: access.customer() },
    },
    async (request) => ok(await updateOwnProfile(deps, customerIdOf(request.caller), request.body)),
  );

  app.post(
    '/rest/auth/customer/password-reset',
    {
      schema: {
        tags,
        summary: 'E-mail a password-reset code (202 whatever the address)',
        body: PasswordResetBody,
        response: { 202: Accepted },
      },
      config: { access: access.public() },
      preHandler: async (request, reply) => {
        await resetsPerIp.take(request.ip, reply);
        await resetsPerEmail.take(request.body.email.trim().toLowerCase(), reply);
      },
    },
    async (request, reply) => {
      await requestPasswordReset(app.db, app.config, request.body.email);
      return reply.code(202).send({ success: true as const });
    },
  );

  app.post(
    '/rest/auth/customer/password-reset/confirm',
    {
      schema: {
        tags,
        summary: 'Set a new password with the e-mailed code; every session ends',
        body: PasswordResetConfirmBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.public() },
      preHandler: (request, reply) => resetsPerIp.take(request.ip, reply),
    },
    async (request) => {
      await confirmPasswordReset(app.db, request.body.token, request.body.password);
      return { success: true as const };
    },
  );

  app.post(
    '/rest/auth/customer/verify-email',
    {
      schema: {
        tags,
        summary: 'Confirm the e-mail address with the e-mailed code',
        body: VerifyEmailBody,
        response: { 200: SuccessOnly },
      },
      config: { access: access.public() },
      preHandler: (request, reply) => resetsPerIp.take(request.ip, reply),
    },
    async (request) => {
      await verifyEmail(app.db, request.body.token);
      return { success: true as const };
    },
  );

  app.post(
    '/rest/auth/admin/password',
    {
      schema: {
        tags,
        summary: 'Change the own password (database admins); every session ends',
        body: AdminPasswordBody,
        response: { 200: SuccessOnly, 422: errorResponse(422) },
      },
      config: { access: access.admin(), audit: { entity: 'admin_user' } },
    },
    async (request) => {
      const caller = request.caller;
      if (caller.kind !== 'admin') throw new AppError('FORBIDDEN', 'this operation needs an admin token');
      await changeAdminPassword(app.db, caller.sub, request.body.currentPassword, request.body.newPassword);
      return { success: true as const };
    },
  );
};
