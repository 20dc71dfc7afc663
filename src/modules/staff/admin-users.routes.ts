import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, type Caller } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok, okOnly } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { limitCounter } from '../../http/limit-counter.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import {
  type Actor,
  createAdminUser,
  getAdminUser,
  listAdminUsers,
  requestAdminPasswordReset,
  updateAdminUser,
} from './admin-users.service.ts';
import {
  AdminUser,
  AdminUserCreateBody,
  AdminUserListQuery,
  AdminUserPatchBody,
  IdParams,
} from '../auth/auth.schemas.ts';
import { Accepted } from '../auth/self-service.schemas.ts';
import { limitAsSent } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';

const PATH = '/rest/system/admin-user';

function actorOf(caller: Caller): Actor {
  return caller.kind === 'admin' ? { sub: caller.sub, roles: caller.roles } : { sub: '', roles: [] };
}

/**
 * Nobody sets another admin's password (its owner chooses it from an e-mailed code) and the own
 * one changes with the current one: said before the schema, which would only call it unknown.
 */
async function refusePassword(request: { body: unknown }): Promise<void> {
  const body = request.body;
  if (body === null || typeof body !== 'object' || !('password' in body)) return;
  throw new AppError('VALIDATION_FAILED', 'a password is never set here', [
    {
      field: 'password',
      message:
        'is chosen by its owner: POST /rest/system/admin-user/{id}/password-reset e-mails a code; the own password changes at POST /rest/auth/admin/password',
    },
  ]);
}

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];
const tags = ['system'];
const config = { access: access.admin(Role.Admin) };
/** Writes: auditAdmin (admin-users.service.ts) keeps each in the audit log. */
const writeConfig = { ...config, audit: { entity: 'admin_user' } };

function readRoutes(app: TypedApp): void {
  app.get(
    PATH,
    {
      schema: {
        tags,
        operationId: 'listAdminUsers',
        summary: 'List admin users',
        querystring: AdminUserListQuery,
        response: { 200: ListEnvelope(AdminUser) },
      },
      config,
      preValidation: limitAsSent,
    },
    async (request) => listAdminUsers(app.db, request.query),
  );

  app.get(
    `${PATH}/:id`,
    {
      schema: {
        tags,
        operationId: 'getAdminUser',
        summary: 'Show an admin user',
        params: IdParams,
        response: { 200: Envelope(AdminUser), 404: errorResponse(404) },
      },
      config,
    },
    async (request) => ok(await getAdminUser(app.db, request.params.id)),
  );
}

function writeRoutes(app: TypedApp): void {
  app.post(
    PATH,
    {
      schema: {
        tags,
        operationId: 'createAdminUser',
        summary: 'Create an admin user',
        description:
          'Without a password the user is e-mailed an invitation to choose one. The roles must be held by the caller; a username of a configured user is taken (409).',
        body: AdminUserCreateBody,
        response: { 201: Envelope(AdminUser), 403: errorResponse(403), 409: errorResponse(409) },
      },
      config: writeConfig,
    },
    async (request, reply) => {
      const user = await createAdminUser(app.db, app.config, actorOf(request.caller), request.body);
      return reply.status(201).send(ok(user));
    },
  );

  app.patch(
    `${PATH}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateAdminUser',
        summary: 'Change an admin user (disabling or new roles revoke its refresh tokens)',
        description:
          'Only an account whose every role the caller holds (a Superuser: any). A password is never set here: 400 naming `password`.',
        params: IdParams,
        body: AdminUserPatchBody,
        response: {
          200: Envelope(AdminUser),
          403: errorResponse(403),
          404: errorResponse(404),
          409: errorResponse(409),
        },
      },
      config: writeConfig,
      preValidation: refusePassword,
    },
    async (request) =>
      ok(await updateAdminUser(app.db, app.config, actorOf(request.caller), request.params.id, request.body)),
  );
}

/** An Admin has a colleague e-mailed a code to choose a new password. */
function passwordResetRoute(app: TypedApp): void {
  const resetsPerAccount = limitCounter(app, 'passwordResetPerEmail', 'password-reset:admin', 3600);
  app.post(
    `${PATH}/:id/password-reset`,
    {
      schema: {
        tags,
        operationId: 'sendAdminUserPasswordReset',
        summary: 'E-mail an admin user a code to choose a new password',
        description:
          'Only for an account whose every role the caller holds (a Superuser: any). The code is valid 30 minutes and once; the password stays as it is until the owner uses it.',
        params: IdParams,
        response: { 202: Accepted, 403: errorResponse(403), 404: errorResponse(404) },
      },
      config: writeConfig,
      // As many reset e-mails an hour to one account as a customer may ask for (passwordResetPerEmail).
      preHandler: async (request, reply) => resetsPerAccount.take(String(request.params.id), reply),
    },
    async (request, reply) => {
      await requestAdminPasswordReset(app.db, app.config, actorOf(request.caller), request.params.id);
      return reply.code(202).send(okOnly());
    },
  );
}

/** `system/admin-user`: database back-office users, Admin role (3) (docs/security.md). */
export const adminUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Accounts, roles and e-mail addresses: never kept by a browser or a shared cache.
  app.addHook('onSend', neverStored);
  readRoutes(app);
  writeRoutes(app);
  passwordResetRoute(app);
};
