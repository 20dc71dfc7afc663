import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { access } from '../../http/access.ts';
import { ListEnvelope, okList } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { Role } from '../../http/roles.ts';
import { appliedPageSize, limitAsSent, PageQuery, paginationOf } from '../../resources/index.ts';
import { pageAudit } from './audit.repo.ts';

const Name = Type.String({ minLength: 1, maxLength: 200 });

const AuditEntryJson = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    actor: Type.String({ description: "The admin token's subject" }),
    action: Type.String(),
    entity: Type.String(),
    entityId: Type.String(),
    changes: Type.Record(Type.String(), Type.Object({ before: Type.Unknown(), after: Type.Unknown() }), {
      description: 'Each changed field with its value before and after',
    }),
  },
  { $id: 'AuditEntry' },
);

const AuditQuery = Type.Object({
  ...PageQuery,
  entity: Type.Optional(Name),
  entityId: Type.Optional(Name),
  actor: Type.Optional(Name),
});

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', neverStored);
  app.get(
    '/rest/system/audit',
    {
      schema: {
        tags: ['system'],
        operationId: 'listAuditEntries',
        summary: 'Back-office writes, newest first: who, when, what changed',
        querystring: AuditQuery,
        response: { 200: ListEnvelope(AuditEntryJson) },
      },
      config: { access: access.admin(Role.Admin) },
      preValidation: limitAsSent,
    },
    async (request) => {
      // Not the resource list path: entries are written only by recordAudit and read newest first by admins, no scopes or totals to cache.
      const { page = 1, limit = 0, entity, entityId, actor } = request.query;
      const perPage = appliedPageSize(limit, 'backend', 0);
      const { rows, total } = await pageAudit(app.db, {
        entity,
        entityId,
        actor,
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      return okList(
        rows.map((r) => ({
          id: r.id,
          at: r.createdAt.toISOString(),
          actor: r.actor,
          action: r.action,
          entity: r.entity,
          entityId: r.entityId,
          changes: r.changes,
        })),
        paginationOf(page, perPage, total),
      );
    },
  );
};
