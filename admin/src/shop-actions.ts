// The back office's calls beyond react-admin's record calls, each on its path of the API
// document, so bodies and answers are the typed client's types (packages/client).
import type { operations, ShopClient } from '../../packages/client/src/index.ts';
import { bodyOf, dataOf } from './api-answer.ts';

type Api = ShopClient['api'];
type JsonBody<Operation extends keyof operations> = operations[Operation] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** A record's id for a path: react-admin's records carry it untyped (a number for these entities). */
const idOf = (id: unknown) => Number(id);

export type OrderStatus = JsonBody<'transitionOrder'>['to'];
export type Shipment = JsonBody<'shipOrder'>;
export type OrderReturn = JsonBody<'returnOrderLines'>;

/** The moves of an order: each answers the order as it is now. */
export function orderActions(api: Api) {
  const order = (id: unknown) => ({ params: { path: { id: idOf(id) } } });
  return {
    /** POST /rest/order/order/{id}/transition {to, reason?}. */
    async transitionOrder(id: unknown, to: OrderStatus, reason?: string) {
      const body = reason ? { to, reason } : { to };
      return { data: dataOf(await api.POST('/rest/order/order/{id}/transition', { ...order(id), body })) };
    },
    /** POST /rest/order/order/{id}/payment {reference?}: records the payment. */
    async markOrderPaid(id: unknown, reference?: string) {
      const body = reference ? { reference } : {};
      return { data: dataOf(await api.POST('/rest/order/order/{id}/payment', { ...order(id), body })) };
    },
    /** POST /rest/order/order/{id}/capture: takes the money an authorized card payment holds. */
    async captureOrderPayment(id: unknown) {
      return { data: dataOf(await api.POST('/rest/order/order/{id}/capture', order(id))) };
    },
    /** POST /rest/order/order/{id}/shipment {carrier, trackingNumber, trackingUrl?}: ships a confirmed order. */
    async shipOrder(id: unknown, shipment: Shipment) {
      const body = shipment.trackingUrl ? shipment : { ...shipment, trackingUrl: undefined };
      return { data: dataOf(await api.POST('/rest/order/order/{id}/shipment', { ...order(id), body })) };
    },
    /** POST /rest/order/order/{id}/return: takes units back and refunds them (restocks when asked). */
    async returnOrderLines(id: unknown, body: OrderReturn) {
      return { data: dataOf(await api.POST('/rest/order/order/{id}/return', { ...order(id), body })) };
    },
  };
}

/** Points, webhooks and back-office users. */
export function systemActions(api: Api) {
  return {
    /** POST /rest/loyalty/adjustment: adds (or with a negative delta takes) a customer's points. */
    async adjustPoints(customerId: unknown, delta: number, reason: string) {
      const body = { customerId: idOf(customerId), delta, reason };
      return { data: dataOf(await api.POST('/rest/loyalty/adjustment', { body })) };
    },
    /** POST /rest/system/webhook/{id}/rotate-secret: the webhook with its new signing secret (shown once). */
    async rotateWebhookSecret(id: unknown) {
      const params = { path: { id: idOf(id) } };
      return { data: dataOf(await api.POST('/rest/system/webhook/{id}/rotate-secret', { params })) };
    },
    /** POST /rest/system/webhook/{id}/deliveries/{deliveryId}/retry: sends a delivery again. */
    async retryWebhookDelivery(webhookId: unknown, deliveryId: unknown) {
      const params = { path: { id: idOf(webhookId), deliveryId: idOf(deliveryId) } };
      return {
        data: dataOf(await api.POST('/rest/system/webhook/{id}/deliveries/{deliveryId}/retry', { params })),
      };
    },
    /** POST /rest/system/admin-user/{id}/password-reset: e-mails the user a code to choose a password. */
    async sendAdminPasswordReset(id: unknown) {
      bodyOf(
        await api.POST('/rest/system/admin-user/{id}/password-reset', { params: { path: { id: idOf(id) } } }),
      );
    },
    /** GET /rest/system/locales: the locales the catalog is served in, the default first. */
    async servedLocales() {
      return dataOf(await api.GET('/rest/system/locales'));
    },
    /** POST /rest/auth/admin/password-reset/confirm: the owner chooses the password with the code. */
    async chooseAdminPassword(token: string, password: string) {
      bodyOf(await api.POST('/rest/auth/admin/password-reset/confirm', { body: { token, password } }));
    },
  };
}
