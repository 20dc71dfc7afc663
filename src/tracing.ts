import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyPluginCallback } from 'fastify';
import pg from 'pg';

/**
 * OpenTelemetry traces, sent as OTLP JSON over HTTP to `<endpoint>/v1/traces` (docs/operations.md).
 * Loaded by buildApp only when OTEL_EXPORTER_OTLP_ENDPOINT is set: without it, none of this is
 * imported, and no context manager (AsyncLocalStorage, which costs every request CPU) is installed.
 */
export interface Tracing {
  /** Registered first on the app: spans for every route, its hooks and handler. */
  plugin: FastifyPluginCallback;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

export function startTracing(endpoint: string, serviceName = 'shop-rest-api'): Tracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }), {
        scheduledDelayMillis: 1000,
      }),
    ],
  });
  // The global provider and the AsyncLocalStorage context manager: a pg span's parent is its request's.
  provider.register();
  const fastify = new FastifyOtelInstrumentation();
  fastify.setTracerProvider(provider);
  instrumentPg(provider);
  return {
    plugin: fastify.plugin(),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * The pg instrumentation patches `pg` from a require hook, which never sees this ESM service
 * load it (`import pg from 'pg'`, in tsx and in the esbuild bundle alike, where packages stay
 * external). Its module definition's patch is applied to the loaded module instead: it wraps
 * `pg.Client.prototype.query`/`connect`, so every pool's clients are traced, whenever created.
 */
function instrumentPg(provider: NodeTracerProvider): void {
  // Not enabled: its require hook would wrap the client a second time if pg-boss required `pg`.
  const instrumentation = new PgInstrumentation({ enabled: false });
  instrumentation.setTracerProvider(provider);
  const definition = instrumentation.getModuleDefinitions().find((d) => d.name === 'pg');
  definition?.patch?.(pg);
}
