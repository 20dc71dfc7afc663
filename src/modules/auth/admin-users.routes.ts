import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, type Caller } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import {
  type Actor,
  createAdminUser,
  getAdminUser,
  listAdminUsers,
  updateAdminUser,
} from './admin-users.service.ts';
import {
  AdminUser,
  AdminUserCreateBody,
  AdminUserListQuery,
  AdminUserPatchBody,
  IdParams,
} from './auth.schemas.ts';
import { limitAsSent } from '../../resources/pagination.ts';
import { Role } from '../../http/roles.ts';

const PATH = '/rest/system/admin-user';

function actorOf(caller: Caller): Actor {
  return caller.kind === 'admin' ? { sub: caller.sub, roles: caller.roles } : { sub: '', roles: [] };
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
        summary: 'Create an admin user',
        body: AdminUserCreateBody,
        response: { 201: Envelope(AdminUser), 409: errorResponse(409) },
      },
      config: writeConfig,
    },
    async (request, reply) => {
      const user = await createAdminUser(app.db, actorOf(request.caller), request.body);
      return reply.status(201).send(ok(user));
    },
  );

  app.patch(
    `${PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Change an admin user (disabling, new roles or a new password revoke its refresh tokens)',
        params: IdParams,
        body: AdminUserPatchBody,
        response: { 200: Envelope(AdminUser), 404: errorResponse(404) },
      },
      config: writeConfig,
    },
    async (request) =>
      ok(await updateAdminUser(app.db, actorOf(request.caller), request.params.id, request.body)),
  );
}

/** `system/admin-user`: database back-office users, Admin role (3) (docs/security.md). */
export const adminUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  readRoutes(app);
  writeRoutes(app);
};
