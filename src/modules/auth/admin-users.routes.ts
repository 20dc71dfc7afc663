import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, type Caller } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import { createAdminUser, getAdminUser, listAdminUsers, updateAdminUser } from './admin-users.service.ts';
import { AdminUser, AdminUserCreateBody, AdminUserPatchBody, IdParams, PageQuery } from './auth.schemas.ts';
import { Role } from './roles.ts';

const PATH = '/rest/system/admin-user';

function rolesOf(caller: Caller): number[] {
  return caller.kind === 'admin' ? caller.roles : [];
}

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];
const tags = ['system'];
const config = { access: access.admin(Role.Admin) };

function readRoutes(app: TypedApp): void {
  app.get(
    PATH,
    {
      schema: {
        tags,
        summary: 'List admin users',
        querystring: PageQuery,
        response: { 200: ListEnvelope(AdminUser) },
      },
      config,
    },
    async (request) => {
      const { data, pagination } = await listAdminUsers(app.db, request.query.page, request.query.limit);
      return { success: true as const, data, pagination };
    },
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
      config,
    },
    async (request, reply) => {
      const user = await createAdminUser(app.db, rolesOf(request.caller), request.body);
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
      config,
    },
    async (request) =>
      ok(await updateAdminUser(app.db, rolesOf(request.caller), request.params.id, request.body)),
  );
}

/** `system/admin-user`: database back-office users (CONTRACT §4), Admin role (3). */
export const adminUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  readRoutes(app);
  writeRoutes(app);
};
