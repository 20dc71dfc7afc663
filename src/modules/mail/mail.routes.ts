import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { access, type Caller } from '../../http/access.ts';
import { ListEnvelope, okList } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { appliedPageSize, limitAsSent, PageQuery, paginationOf } from '../../resources/index.ts';
import { hasAnyRole, Role } from '../../http/roles.ts';
import { pageMail } from './mail.repo.ts';

const PERSONAL = 'null unless the caller holds Admin (3): it names a customer';

const MailJson = Type.Object({
  id: Type.Integer(),
  template: Type.String(),
  locale: Type.String(),
  to: Type.Union([Type.String(), Type.Null()], { description: PERSONAL }),
  subject: Type.Union([Type.String(), Type.Null()], {
    description: `${PERSONAL} (an order's number)`,
  }),
  status: Type.Union(
    ['pending', 'sending', 'sent', 'logged', 'dead'].map((s) => Type.Literal(s)),
    {
      description: 'logged: no SMTP_URL, kept here (and printed in development) instead of sent',
    },
  ),
  attempts: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'The last failure; e-mail addresses in it read [address] unless the caller holds Admin (3)',
  }),
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
        operationId: 'listMails',
        summary: 'The mail outbox, newest first, with each message’s status',
        querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
        response: { 200: ListEnvelope(MailJson) },
      },
      config: { access: access.admin(Role.Developer, Role.Admin) },
      preValidation: limitAsSent,
    },
    async (request) => {
      // Not the resource list path: recipients are shown to Admins only (readsRecipients), a rule by role field scopes cannot express.
      const perPage = appliedPageSize(request.query.limit ?? 0, 'backend', 0);
      const page = request.query.page ?? 1;
      const { rows, total } = await pageMail(app.db, perPage, (page - 1) * perPage);
      const personal = readsRecipients(request.caller);
      return okList(
        rows.map((m) => ({
          id: m.id,
          template: m.template,
          locale: m.locale,
          to: personal ? m.toAddress : null,
          subject: personal ? m.subject : null,
          status: m.status,
          attempts: m.attempts,
          error: personal || m.lastError === null ? m.lastError : withoutAddresses(m.lastError),
          nextAttemptAt: m.nextAttemptAt?.toISOString() ?? null,
          createdAt: m.createdAt.toISOString(),
          sentAt: m.sentAt?.toISOString() ?? null,
        })),
        paginationOf(page, perPage, total),
      );
    },
  );
};

/**
 * Recipients and subjects are for Admin (3) (and Superuser) only: with the guest order lookup, an
 * address and an order number open a customer's name, phone and street. A Developer (2) reads
 * the outbox to watch delivery: status, template, attempts and timing.
 */
function readsRecipients(caller: Caller): boolean {
  return caller.kind === 'admin' && hasAnyRole(caller.roles, [Role.Admin]);
}

/** An SMTP server's refusal often quotes the recipient ("550 <ann@example.com>: no such user"). */
function withoutAddresses(error: string): string {
  return error.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[address]');
}
