import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cardProviderOf } from '../../config.ts';
import { access, type Caller } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { ownerOf } from './card-payments.ts';
import { AuthenticateBody, ConfirmBody, StepAnswerJson } from './payments.schemas.ts';
import { authenticateTestIntent, confirmTestIntent } from './test-provider.service.ts';

/** The buyer of an intent: admins have no cart and pay nothing. */
function ownerOfCaller(caller: Caller): string {
  if (caller.kind === 'admin') throw new AppError('FORBIDDEN', 'admins do not pay orders');
  return ownerOf(caller.kind === 'customer' ? caller.customerId : null);
}

/** The test provider's customer steps; registered only when it serves cards (never in production). */
export const testProviderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  if (cardProviderOf(app.config) !== 'test') return;
  const tags = ['payments'];
  app.addHook('onSend', neverStored);
  const response = {
    200: Envelope(StepAnswerJson),
    403: errorResponse(403),
    404: errorResponse(404),
    409: errorResponse(409),
  };

  app.post(
    '/rest/payments/test/confirm',
    {
      schema: {
        tags,
        operationId: 'confirmTestPayment',
        summary: 'Confirm a test payment with a card number',
        description:
          '4242424242424242 approves, 4000000000000002 declines, 4000002500003155 asks for 3-D Secure. A declined attempt leaves the intent payable.',
        body: ConfirmBody,
        response,
      },
      // The provider's own tables only: the intent and its event.
      config: { access: access.public(), movesNoVersion: true },
    },
    async (request) =>
      ok(
        await confirmTestIntent(app.db, {
          ...request.body,
          owner: ownerOfCaller(request.caller),
          now: new Date(),
        }),
      ),
  );

  app.post(
    '/rest/payments/test/authenticate',
    {
      schema: {
        tags,
        operationId: 'authenticateTestPayment',
        summary: 'Pass or fail the 3-D Secure step of a test payment',
        body: AuthenticateBody,
        response,
      },
      // The provider's own tables only: the intent and its event.
      config: { access: access.public(), movesNoVersion: true },
    },
    async (request) =>
      ok(
        await authenticateTestIntent(app.db, {
          ...request.body,
          owner: ownerOfCaller(request.caller),
          now: new Date(),
        }),
      ),
  );
};
