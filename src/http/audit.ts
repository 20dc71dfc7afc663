import type { RouteOptions } from 'fastify';
import type { Access } from './access.ts';

// Every back-office write is kept in the audit log (docs/security.md, "Audit log"). A route that
// an admin token may call to change something declares the entity its entries name in
// `config.audit`: the resource framework declares its own writes and records them itself; a
// hand-built route's service records its entry in the transaction of the write. The app refuses
// to start when such a route declares nothing, so a new write cannot forget the log.

export interface AuditDeclaration {
  /** The entity the route's audit entries name (`product`, `order`, `webhook`…). */
  entity: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditDeclaration;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True when an admin token may call the route: its writes are back-office writes. */
function admitsAdmins(rule: Access | undefined): boolean {
  return rule?.kind === 'admin' || rule?.kind === 'customerOrAdmin';
}

/** Stops the start when a /rest write route an admin may call declares no `config.audit`. */
export function requireAuditDeclaration(route: RouteOptions): void {
  if (!route.url.startsWith('/rest')) return;
  const methods = ([] as string[]).concat(route.method);
  if (methods.every((m) => READS.has(m))) return;
  if (!admitsAdmins(route.config?.access) || route.config?.audit) return;
  throw new Error(`back-office write ${methods.join(',')} ${route.url} declares no config.audit`);
}
