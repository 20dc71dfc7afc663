import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { access } from '../../http/access.ts';
import { ListEnvelope } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { appliedPageSize, limitAsSent, PageQuery, paginationOf } from '../../resources/pagination.ts';
import { Role } from '../../http/roles.ts';
import { pageMail } from './mail.repo.ts';

const MailJson = Type.Object({
  id: Type.Integer(),
  template: Type.String(),
  locale: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  status: Type.Union(
    ['pending', 'sending', 'sent', 'logged', 'dead'].map((s) => Type.Literal(s)),
    {
      description: 'logged: no SMTP_URL, kept here (and printed in development) instead of sent',
    },
  ),
  attempts: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const mailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Messages name customers and may carry reset codes: never cached.
  app.addHook('onSend', neverStored);
  app.get(
    '/rest/system/mail',
    {
      schema: {
        tags: ['mail'],
        summary: 'The mail outbox, newest first, with each message’s status',
        querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
        response: { 200: ListEnvelope(MailJson) },
      },
      config: { access: access.admin(Role.Developer, Role.Admin) },
      preValidation: limitAsSent,
    },
    async (request) => {
      const perPage = appliedPageSize(request.query.limit ?? 0, 'backend', 0);
      const page = request.query.page ?? 1;
      const { rows, total } = await pageMail(app.db, perPage, (page - 1) * perPage);
      return {
        success: true as const,
        data: rows.map((m) => ({
          id: m.id,
          template: m.template,
          locale: m.locale,
          to: m.toAddress,
          subject: m.subject,
          status: m.status,
          attempts: m.attempts,
          error: m.lastError,
          nextAttemptAt: m.nextAttemptAt?.toISOString() ?? null,
          createdAt: m.createdAt.toISOString(),
          sentAt: m.sentAt?.toISOString() ?? null,
        })),
        pagination: paginationOf(page, perPage, total),
      };
    },
  );
};
