import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, adminSubOf } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok, okList } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import { cachingHook, paginationOf, servedLocales } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import {
  Features,
  featuresOf,
  PutSettingBody,
  ServedLocales,
  SettingEntry,
  SettingKeyParams,
  StorefrontConfig,
  storefrontConfigOf,
} from './settings.schemas.ts';
import {
  assertConfigSettings,
  listSettings,
  publishSettingDefaults,
  putSetting,
  readSettings,
  resetSetting,
  showSetting,
} from './settings.service.ts';

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['system'];
const backend = { access: access.admin(Role.Developer, Role.Admin) };
const backendWrite = { ...backend, audit: { entity: 'setting' } };
const privateAnswer = cachingHook('private');
const revalidate = cachingHook('revalidate');
/** What the storefront reads of the settings: the same for every caller, dropped when a setting changes. */
const storefrontRead = { access: access.public(), cache: { tables: ['setting'], customers: true } };
const One = Envelope(SettingEntry);

/** The settings registry (back office), the feature flags and the storefront configuration. */
export const settingsModule: FastifyPluginAsyncTypebox = async (app) => {
  assertConfigSettings(app.config);
  await publishSettingDefaults(app.db, app.config);
  settingReadRoutes(app);
  localeRoutes(app);
  settingWriteRoutes(app);
  storefrontRoutes(app);
};

/** The back office reads every setting or one. */
function settingReadRoutes(app: TypedApp): void {
  const notFound = errorResponse(404);
  app.get(
    '/rest/system/setting',
    {
      schema: {
        tags,
        operationId: 'listSettings',
        summary: 'Every setting with its effective value',
        response: { 200: ListEnvelope(SettingEntry) },
      },
      config: backend,
      onSend: privateAnswer,
    },
    async () => {
      // Not the resource list path: every registry key with its effective value, not rows of a table.
      const entries = await listSettings(app.db, app.config);
      return okList(entries, paginationOf(1, entries.length, entries.length));
    },
  );

  app.get(
    '/rest/system/setting/:key',
    {
      schema: {
        tags,
        operationId: 'getSetting',
        summary: 'One setting',
        params: SettingKeyParams,
        response: { 200: One, 404: notFound },
      },
      config: backend,
      onSend: privateAnswer,
    },
    async (request) => ok(await showSetting(app.db, app.config, request.params.key)),
  );
}

/** Every back-office user reads the locales served: the screens that edit texts have a tab per locale. */
function localeRoutes(app: TypedApp): void {
  app.get(
    '/rest/system/locales',
    {
      schema: {
        tags,
        operationId: 'getServedLocales',
        summary: 'The locales the catalog is served in, the default first',
        response: { 200: ServedLocales },
      },
      config: { access: access.admin() },
      onSend: privateAnswer,
    },
    async () => {
      const served = servedLocales(await readSettings(app.db, app.config));
      const others = served.enabled.filter((code) => code !== served.default);
      return ok({ locales: [served.default, ...others], defaultLocale: served.default });
    },
  );
}

/** The back office sets a value or returns a key to its default. */
function settingWriteRoutes(app: TypedApp): void {
  const notFound = errorResponse(404);
  app.put(
    '/rest/system/setting/:key',
    {
      schema: {
        tags,
        operationId: 'setSetting',
        summary: 'Set a value (checked against the key’s type); live on the next request',
        params: SettingKeyParams,
        body: PutSettingBody,
        response: { 200: One, 404: notFound },
      },
      config: backendWrite,
      onSend: privateAnswer,
    },
    async (request) =>
      ok(
        await putSetting(
          app.db,
          app.config,
          request.params.key,
          request.body.value,
          adminSubOf(request.caller),
        ),
      ),
  );

  app.delete(
    '/rest/system/setting/:key',
    {
      schema: {
        tags,
        operationId: 'resetSetting',
        summary: 'Return a key to its default',
        params: SettingKeyParams,
        response: { 200: One, 404: notFound },
      },
      config: backendWrite,
      onSend: privateAnswer,
    },
    async (request) =>
      ok(await resetSetting(app.db, app.config, request.params.key, adminSubOf(request.caller))),
  );
}

/** What the storefront reads: the feature flags and its configuration. */
function storefrontRoutes(app: TypedApp): void {
  app.get(
    '/rest/features',
    {
      schema: {
        tags: ['storefront'],
        operationId: 'getFeatures',
        summary: 'Capability flags',
        response: { 200: Features },
      },
      config: { ...storefrontRead },
      onSend: revalidate,
    },
    async () => ok(featuresOf(await readSettings(app.db, app.config))),
  );

  for (const url of ['/rest/v1/storefront-config', '/rest/storefront-config']) {
    app.get(
      url,
      {
        schema: {
          tags: ['storefront'],
          operationId: url.includes('/v1/') ? 'getStorefrontConfig' : 'getStorefrontConfigUnversioned',
          summary: 'Storefront settings as typed sections',
          response: { 200: StorefrontConfig },
          querystring: Type.Object({}),
        },
        config: { ...storefrontRead },
        onSend: revalidate,
      },
      async () => ok(storefrontConfigOf(await readSettings(app.db, app.config))),
    );
  }
}
