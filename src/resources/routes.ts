import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Access, access } from '../http/access.ts';
import type { AuditDeclaration } from '../http/audit.ts';
import { Envelope, ListEnvelope, SuccessOnly } from '../http/envelope.ts';
import { errorResponse } from '../http/openapi.ts';
import { cacheDeclarationOf } from './cache-declaration.ts';
import { cachingHook } from './caching.ts';
import { isTranslatable } from './translations.ts';
import { operationIdsOf } from './operation-names.ts';
import { limitAsSent } from './pagination.ts';
import type { CacheDeclaration } from './response-cache.ts';
import { itemEntity, listEntities, showEntity } from './read.service.ts';
import { createBody, IdParams, itemSchema, querySchema, updateBody } from './schemas.ts';
import {
  type RecordWrite,
  type Resource,
  SCOPES,
  type Scope,
  type SettingsSource,
  scopeOf,
  type Values,
  type WriteRequestContext,
} from './types.ts';
import { createEntity, deleteEntity, refuseReadOnly, updateEntity } from './write.service.ts';

// Registers the standard routes of a resource: list, item, show, and the writes it allows.
// Each answer is serialized with the schema of the caller's scope, so a field the caller may
// not read has no way into the body.

declare module 'fastify' {
  interface FastifyInstance {
    /** The live settings, as the settings module reads them (passed in by the app). */
    settingsSource: SettingsSource;
    /** Keeps an admin's resource write in the audit log (passed in by the app). */
    recordWrite: RecordWrite;
  }
}

export function requestContext(request: FastifyRequest): WriteRequestContext {
  const { db, config, settingsSource, recordWrite } = request.server;
  return { db, config, caller: request.caller, settingsSource, recordWrite, locale: request.locale };
}

const JSON_UTF8 = 'application/json; charset=utf-8';

type Serializers = Record<Scope, TSchema>;

function perScope(build: (scope: Scope) => TSchema): Serializers {
  return Object.fromEntries(SCOPES.map((s) => [s, build(s)])) as Serializers;
}

/** Serializes with the caller's scope schema; set last, after the work, so errors keep their own. */
function serializeFor(request: FastifyRequest, reply: FastifyReply, serializers: Serializers): void {
  const schema = serializers[scopeOf(request.caller)];
  reply.type(JSON_UTF8).serializer(reply.compileSerializationSchema(schema));
}

function readAccess(resource: Resource): Access {
  const { access: who, roles = [] } = resource.def.read;
  if (who === 'public') return access.public();
  return who === 'owner' ? access.customerOrAdmin(...roles) : access.admin(...roles);
}

/** Who may write, and the audit log's entity (write.service.ts records every admin's write itself). */
function writeConfig(resource: Resource): { access: Access; audit: AuditDeclaration } {
  const write = resource.def.write;
  if (!write) throw new Error(`${resource.name}: no writes declared`);
  const who = write.owner ? access.customerOrAdmin(...write.roles) : access.admin(...write.roles);
  return { access: who, audit: { entity: resource.def.entity } };
}

/** "a product", "an address", "a shipping method": one of a resource, for the operation summaries. */
export function oneOf(plural: string): string {
  const singular = plural
    .replace(/ies$/, 'y')
    .replace(/(ss|x|ch|sh)es$/, '$1')
    .replace(/([^s])s$/, '$1');
  return `${/^[aeiou]/i.test(singular) ? 'an' : 'a'} ${singular}`;
}

/** What the generic routes receive once their schemas validated the request. */
type Query = Record<string, unknown>;
interface ById {
  Params: { id: number };
}
/** What the routes of one resource share: tags, caching, schemas and the words of their summaries. */
interface RouteParts {
  tags: string[];
  onSend: ReturnType<typeof cachingHook>;
  /** The reads' route config: who may call them, and what their cached answers depend on. */
  readConfig: { access: Access; cache?: CacheDeclaration };
  /** The document describes every nesting `with` can ask for (the fuzzer checks answers against it). */
  doc: TSchema;
  oneSerializers: Serializers;
  notFound: TSchema;
  /** The resource in the plural ("products") and one of it ("a product"). */
  who: string;
  one: string;
  /** The operationIds of its routes (operation-names.ts). */
  ids: ReturnType<typeof operationIdsOf>;
}

/** Registers the resource's routes on `app` (a module's plugin instance). */
export function registerResource(app: FastifyInstance, resource: Resource): void {
  const { def } = resource;
  const who = def.description ?? resource.name;
  const parts: RouteParts = {
    tags: [def.domain],
    onSend: cachingHook(def.publicCache ? 'public' : 'private', isTranslatable(resource)),
    readConfig: { access: readAccess(resource), cache: cacheDeclarationOf(resource) },
    doc: itemSchema(resource, 'backend', undefined, true),
    oneSerializers: perScope((s) => Envelope(itemSchema(resource, s))),
    notFound: errorResponse(404),
    who,
    one: oneOf(who),
    ids: operationIdsOf(resource),
  };
  readRoutes(app, resource, parts);
  writeRoutes(app, resource, parts);
}

/** The list: the page as the database wrote it (read.service.ts). */
function listRoute(app: FastifyInstance, resource: Resource, parts: RouteParts): void {
  const { path } = resource;
  const { tags, onSend, doc, who } = parts;
  app.get<{ Querystring: Query }>(
    path,
    {
      schema: {
        tags,
        operationId: parts.ids.list,
        summary: `List ${who}`,
        description: `A page of ${who} (page, limit), narrowed by the field filters and q, ordered by sort; with embeds related records. Each caller gets the rows and fields their scope may read.`,
        querystring: querySchema(resource, true),
        response: { 200: ListEnvelope(doc) },
      },
      config: { ...parts.readConfig },
      preValidation: limitAsSent,
      onSend,
    },
    async (request, reply) => {
      // JSON text built by the database from the caller's readable fields only: sent as it is.
      const rctx = requestContext(request);
      const own = await resource.def.listVariant?.answer(rctx, resource, request.query);
      return reply.type(JSON_UTF8).send(own ?? (await listEntities(rctx, resource, request.query)));
    },
  );
}

/** List, item and show. */
function readRoutes(app: FastifyInstance, resource: Resource, parts: RouteParts): void {
  const { path } = resource;
  const { tags, onSend, doc, oneSerializers, notFound, who, one } = parts;
  const { with: withParam, locale } = querySchema(resource, false).properties;
  const withOnly = Type.Object(locale ? { with: withParam, locale } : { with: withParam });
  listRoute(app, resource, parts);
  app.get<{ Querystring: Query }>(
    `${path}/item`,
    {
      schema: {
        tags,
        operationId: parts.ids.find,
        summary: `Find the first ${one.replace(/^an? /, '')} matching the filters`,
        description: `The first of the ${who} the list's filters, q and sort select; 404 when none matches.`,
        querystring: querySchema(resource, false),
        response: { 200: Envelope(doc), 404: notFound },
      },
      config: { ...parts.readConfig },
      onSend,
    },
    async (request, reply) => {
      const result = await itemEntity(requestContext(request), resource, request.query);
      serializeFor(request, reply, oneSerializers);
      return result;
    },
  );
  app.get<ById & { Querystring: Query }>(
    `${path}/:id`,
    {
      schema: {
        tags,
        operationId: parts.ids.get,
        summary: `Get ${one}`,
        description: `One of the ${who} by id; with embeds related records. 404 when there is none the caller may see.`,
        params: IdParams,
        querystring: withOnly,
        response: { 200: Envelope(doc), 404: notFound },
      },
      config: { ...parts.readConfig },
      onSend,
    },
    async (request, reply) => {
      const result = await showEntity(requestContext(request), resource, request.params.id, request.query);
      serializeFor(request, reply, oneSerializers);
      return result;
    },
  );
}

/** Create, update and delete, as far as the resource allows them. */
function writeRoutes(app: FastifyInstance, resource: Resource, parts: RouteParts): void {
  const { path } = resource;
  const { tags, onSend, doc, oneSerializers, notFound, one } = parts;
  const writeErrors = { 404: notFound, 409: errorResponse(409), 422: errorResponse(422) };
  if (resource.operations.includes('create')) createRoute(app, resource, parts, writeErrors);
  if (resource.operations.includes('update')) {
    app.patch<ById & { Body: Values }>(
      `${path}/:id`,
      {
        schema: {
          tags,
          operationId: parts.ids.update,
          summary: `Update ${one}`,
          description: `Changes the fields sent (at least one) and answers the record; unknown and read-only fields are refused (400).`,
          params: IdParams,
          body: updateBody(resource),
          response: { 200: Envelope(doc), ...writeErrors },
        },
        config: writeConfig(resource),
        preValidation: async (request) => refuseReadOnly(request.caller, resource, request.body, 'update'),
        onSend,
      },
      async (request, reply) => {
        const result = await updateEntity(requestContext(request), resource, request.params.id, request.body);
        serializeFor(request, reply, oneSerializers);
        return result;
      },
    );
  }
  if (resource.operations.includes('delete')) {
    app.delete<ById>(
      `${path}/:id`,
      {
        schema: {
          tags,
          operationId: parts.ids.delete,
          summary: `Delete ${one}`,
          description: `Deletes ${one}; 409 when other records still refer to it.`,
          params: IdParams,
          response: { 200: SuccessOnly, ...writeErrors },
        },
        config: writeConfig(resource),
        onSend,
      },
      async (request) => deleteEntity(requestContext(request), resource, request.params.id),
    );
  }
}

function createRoute(
  app: FastifyInstance,
  resource: Resource,
  parts: RouteParts,
  writeErrors: Record<number, TSchema>,
): void {
  const { path } = resource;
  const { tags, onSend, doc, oneSerializers, one } = parts;
  app.post<{ Body: Values }>(
    path,
    {
      schema: {
        tags,
        operationId: parts.ids.create,
        summary: `Create ${one}`,
        description: `Creates ${one} and answers it as a read would; unknown and read-only fields are refused (400).`,
        body: createBody(resource),
        response: { 201: Envelope(doc), ...writeErrors },
      },
      config: writeConfig(resource),
      preValidation: async (request) => refuseReadOnly(request.caller, resource, request.body, 'create'),
      onSend,
    },
    async (request, reply) => {
      const result = await createEntity(requestContext(request), resource, request.body);
      serializeFor(request, reply, oneSerializers);
      return reply.code(201).send(result);
    },
  );
}
