import type { FastifyPluginAsync } from 'fastify';
import { adminUiRoutes } from '../http/admin-ui.ts';
import { storefrontRoutes } from '../http/storefront.ts';
import type { ErrorCatalog } from '../http/errors.ts';
import type { ApiTag } from '../http/openapi.ts';
import { authErrors, authTag } from './auth/auth.api.ts';
import { cartTag } from './cart/cart.api.ts';
import { catalogErrors, productTag } from './catalog/catalog.api.ts';
import { checkoutErrors, checkoutTag } from './checkout/checkout.api.ts';
import { cmsTag } from './cms/cms.api.ts';
import { customerErrors, customerTag } from './customers/customers.api.ts';
import { loyaltyTag } from './loyalty/loyalty.api.ts';
import { mailTag } from './mail/mail.api.ts';
import { orderErrors, orderTag } from './orders/orders.api.ts';
import { promotionErrors } from './promotions/promotions.api.ts';
import { reportTag } from './reports/reports.api.ts';
import { storefrontTag, systemTag } from './settings/settings.api.ts';
import { shippingErrors } from './shipping/shipping.api.ts';
import { webhooksTag } from './webhooks/webhooks.api.ts';
import { auditRoutes } from './audit/audit.routes.ts';
import { adminUserRoutes } from './staff/admin-users.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { cartRoutes } from './cart/cart.routes.ts';
import { catalogMediaUses, catalogModule } from './catalog/index.ts';
import { catalogIoErrors, catalogIoTag } from './catalog-io/catalog-io.api.ts';
import { catalogIoModule } from './catalog-io/index.ts';
import { importConsumer } from './catalog-io/import.consumer.ts';
import { promotionsModule } from './promotions/index.ts';
import { shippingModule } from './shipping/index.ts';
import { checkoutRoutes } from './checkout/checkout.routes.ts';
import { paymentMethodRoutes } from './payments/methods.routes.ts';
import { testProviderRoutes } from './payments/test-provider.routes.ts';
import { paymentWebhookRoutes } from './payments/webhook.routes.ts';
import { testPaymentEventsConsumer } from './payments/test-events.consumer.ts';
import { orderPaymentPort } from './orders/card-payment-port.ts';
import { paymentTimeoutConsumer } from './orders/payment-timeout.consumer.ts';
import { cmsMediaUses, cmsModule } from './cms/index.ts';
import { mediaErrors, mediaTag } from './media/media.api.ts';
import { mediaModule } from './media/media.routes.ts';
import { customersModule } from './customers/index.ts';
import { healthRoutes, operationsTag } from '../http/health.ts';
import { outboxModule } from './outbox/index.ts';
import { loyaltyRoutes } from './loyalty/loyalty.routes.ts';
import { mailRoutes } from './mail/mail.routes.ts';
import { fulfilmentRoutes } from './fulfilment/fulfilment.routes.ts';
import { orderActionRoutes } from './orders/order-actions.routes.ts';
import { orderRoutes } from './orders/order.routes.ts';
import { placeOrderRoutes } from './checkout/place-order.routes.ts';
import { reportRoutes } from './reports/reports.routes.ts';
import { settingsModule } from './settings/index.ts';
import { webhookRoutes } from './webhooks/webhooks.routes.ts';
import { paymentErrors, paymentsTag } from './payments/payments.api.ts';
import { webhookConsumer } from './webhooks/outbox-consumer.ts';
import { mailConsumer } from './mail/outbox-consumer.ts';

/** Every feature module's plugin, registered by buildApp in this order. */
export const modules: FastifyPluginAsync[] = [
  healthRoutes,
  authRoutes,
  adminUserRoutes,
  settingsModule,
  catalogModule,
  shippingModule,
  promotionsModule,
  cmsModule,
  // Given the owners' rows that show images: media imports neither catalog nor cms.
  mediaModule([...catalogMediaUses, ...cmsMediaUses]),
  catalogIoModule,
  customersModule,
  cartRoutes,
  checkoutRoutes,
  paymentMethodRoutes,
  testProviderRoutes,
  paymentWebhookRoutes(orderPaymentPort),
  placeOrderRoutes,
  orderRoutes,
  orderActionRoutes,
  fulfilmentRoutes,
  loyaltyRoutes,
  webhookRoutes,
  mailRoutes,
  // Webhooks first: their deliveries are written before the e-mails in the relay's transaction.
  outboxModule([
    webhookConsumer,
    mailConsumer,
    testPaymentEventsConsumer,
    paymentTimeoutConsumer,
    importConsumer,
  ]),
  reportRoutes,
  auditRoutes,
  adminUiRoutes,
  storefrontRoutes,
];

/** The modules' error codes, handed to the generic error layer by buildApp. */
export const moduleErrorCodes: ErrorCatalog[] = [
  authErrors,
  customerErrors,
  catalogErrors,
  shippingErrors,
  promotionErrors,
  checkoutErrors,
  orderErrors,
  paymentErrors,
  mediaErrors,
  catalogIoErrors,
];

/** The document's tags, in the order the docs page lists them. */
export const apiTags: ApiTag[] = [
  authTag,
  storefrontTag,
  productTag,
  catalogIoTag,
  cmsTag,
  mediaTag,
  cartTag,
  checkoutTag,
  paymentsTag,
  customerTag,
  orderTag,
  loyaltyTag,
  reportTag,
  systemTag,
  webhooksTag,
  operationsTag,
  mailTag,
];
