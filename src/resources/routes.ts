import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Access, access } from '../http/access.ts';
import { SuccessOnly } from '../http/envelope.ts';
import { errorResponse } from '../http/openapi.ts';
import { type CachePolicy, cachingHook } from './caching.ts';
import { itemEntity, listEntities, showEntity } from './read.service.ts';
import {
  createBody,
  IdParams,
  itemSchema,
  listResponse,
  oneResponse,
  querySchema,
  updateBody,
} from './schemas.ts';
import { type RequestContext, type Resource, SCOPES, type Scope, scopeOf, type Values } from './types.ts';
import { createEntity, deleteEntity, updateEntity } from './write.service.ts';

// Registers the standard routes of a resource: list, item, show, and the writes it allows.
// Each answer is serialized with the schema of the caller's scope, so a field the caller may
// not read has no way into the body.

export function requestContext(request: FastifyRequest): RequestContext {
  return { db: request.server.db, config: request.server.config, caller: request.caller };
}

/** `limit=` (empty) means the default page size, like an omitted limit. */
async function emptyLimitIsDefault(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  if (query.limit === '') delete query.limit;
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

function writeAccess(resource: Resource): Access {
  const write = resource.def.write!;
  return write.owner ? access.customerOrAdmin(...write.roles) : access.admin(...write.roles);
}

export interface RegisterOptions {
  /** Leave out standard reads (a module serving its own). */
  reads?: boolean;
}

/** Registers the resource's routes on `app` (a module's plugin instance). */
export function registerResource(
  app: FastifyInstance,
  resource: Resource,
  options: RegisterOptions = {},
): void {
  const { path, def } = resource;
  const tags = [def.domain];
  const policy: CachePolicy = def.publicCache ? 'public' : 'private';
  const onSend = cachingHook(policy);
  // The document describes every nesting `with` can ask for (the fuzzer checks answers against it).
  const doc = itemSchema(resource, 'backend', undefined, true);
  const listSerializers = perScope((s) => listResponse(itemSchema(resource, s)));
  const oneSerializers = perScope((s) => oneResponse(itemSchema(resource, s)));
  const withOnly = Type.Object({ with: querySchema(resource, false).properties.with });
  const notFound = errorResponse(404);
  const who = def.description ?? resource.name;

  if (options.reads !== false) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary: `List ${who}`,
          querystring: querySchema(resource, true),
          response: { 200: listResponse(doc) },
        },
        config: { access: readAccess(resource) },
        preValidation: emptyLimitIsDefault,
        onSend,
      },
      async (request, reply) => {
        const result = await listEntities(
          requestContext(request),
          resource,
          request.query as Record<string, unknown>,
        );
        // JSON text built by the database from the caller's readable fields only: sent as it is.
        if (typeof result === 'string') return reply.type(JSON_UTF8).send(result);
        serializeFor(request, reply, listSerializers);
        return result;
      },
    );
    app.get(
      `${path}/item`,
      {
        schema: {
          tags,
          summary: `The first ${who} matching the list's filters`,
          querystring: querySchema(resource, false),
          response: { 200: oneResponse(doc), 404: notFound },
        },
        config: { access: readAccess(resource) },
        onSend,
      },
      async (request, reply) => {
        const result = await itemEntity(
          requestContext(request),
          resource,
          request.query as Record<string, unknown>,
        );
        serializeFor(request, reply, oneSerializers);
        return result;
      },
    );
    app.get(
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: `One ${who}`,
          params: IdParams,
          querystring: withOnly,
          response: { 200: oneResponse(doc), 404: notFound },
        },
        config: { access: readAccess(resource) },
        onSend,
      },
      async (request, reply) => {
        const { id } = request.params as { id: number };
        const result = await showEntity(
          requestContext(request),
          resource,
          id,
          request.query as Record<string, unknown>,
        );
        serializeFor(request, reply, oneSerializers);
        return result;
      },
    );
  }

  const writeErrors = { 404: notFound, 409: errorResponse(409), 422: errorResponse(422) };
  if (resource.operations.includes('create')) {
    app.post(
      path,
      {
        schema: {
          tags,
          summary: `Create ${who}`,
          body: createBody(resource),
          response: { 201: oneResponse(doc), ...writeErrors },
        },
        config: { access: writeAccess(resource) },
        onSend,
      },
      async (request, reply) => {
        const result = await createEntity(requestContext(request), resource, request.body as Values);
        serializeFor(request, reply, oneSerializers);
        return reply.code(201).send(result);
      },
    );
  }
  if (resource.operations.includes('update')) {
    app.patch(
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: `Change ${who}`,
          params: IdParams,
          body: updateBody(resource),
          response: { 200: oneResponse(doc), ...writeErrors },
        },
        config: { access: writeAccess(resource) },
        onSend,
      },
      async (request, reply) => {
        const { id } = request.params as { id: number };
        const result = await updateEntity(requestContext(request), resource, id, request.body as Values);
        serializeFor(request, reply, oneSerializers);
        return result;
      },
    );
  }
  if (resource.operations.includes('delete')) {
    app.delete(
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: `Delete ${who}`,
          params: IdParams,
          response: { 200: SuccessOnly, ...writeErrors },
        },
        config: { access: writeAccess(resource) },
        onSend,
      },
      async (request) =>
        deleteEntity(requestContext(request), resource, (request.params as { id: number }).id),
    );
  }
}
