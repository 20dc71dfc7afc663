import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

// Fastify compiles one serializer per route and status code. Every route documents the same
// error envelope for half a dozen statuses (src/http/openapi.ts), and the resource routes share
// their per-scope schemas, so most of those ~1,000 compilations are copies: each one with its own
// Ajv instance, some 40 MB of heap in all. Here one schema is compiled once per server.

type BuildSerializer = ReturnType<typeof SerializerSelector>;
type Compiler = ReturnType<BuildSerializer>;

/** Descriptions document a schema; they never change what is serialized. */
function serializationKey(schema: unknown): string {
  return JSON.stringify(schema, (key, value) => (key === 'description' ? undefined : value));
}

export function sharedSerializers(): BuildSerializer {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const compiled = new Map<string, ReturnType<Compiler>>();
    return (route) => {
      const key = serializationKey(route.schema);
      let serializer = compiled.get(key);
      if (!serializer) {
        serializer = compile(route);
        compiled.set(key, serializer);
      }
      return serializer;
    };
  };
}
