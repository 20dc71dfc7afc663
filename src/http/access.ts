import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { hasAnyRole, type RoleId } from './roles.ts';
import { AppError } from './errors.ts';
import { errorResponse } from './openapi.ts';

/** Who is calling: decided once per request from the bearer token. */
export type Caller =
  | { kind: 'guest' }
  | { kind: 'customer'; customerId: number }
  | { kind: 'admin'; sub: string; roles: number[] };

/** What a route accepts; every /rest route declares one in `config.access`. */
export type Access =
  | { kind: 'public' }
  | { kind: 'customer' }
  | { kind: 'admin'; roles: RoleId[] }
  | { kind: 'customerOrAdmin'; roles: RoleId[] };

export const access = {
  /** Anyone; a token, when sent, must be valid and selects the scope. */
  public: (): Access => ({ kind: 'public' }),
  customer: (): Access => ({ kind: 'customer' }),
  /** Admins holding any of the roles (Superuser always passes). */
  admin: (...roles: RoleId[]): Access => ({ kind: 'admin', roles }),
  /** A customer acting on their own rows, or an admin holding one of the roles. */
  customerOrAdmin: (...roles: RoleId[]): Access => ({ kind: 'customerOrAdmin', roles }),
};

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** The route reads the Authorization header itself (GET /metrics): no caller is resolved from it. */
    ownAuthorization?: boolean;
  }
}

export const GUEST: Caller = { kind: 'guest' };

/** Turns a bearer token into its caller, or throws the AppError to answer (passed in by the app). */
export type Authenticate = (token: string) => Promise<Caller>;

/** Reads the bearer token; an invalid one is a 401 everywhere, never a silent guest. */
export function resolveCaller(authenticate: Authenticate, header: string): Promise<Caller> {
  const match = /^Bearer ([A-Za-z0-9_.~+/=-]{1,4096})$/.exec(header);
  if (!match) {
    return Promise.reject(
      new AppError('UNAUTHENTICATED', 'the Authorization header must be "Bearer <token>"'),
    );
  }
  return authenticate(match[1]);
}

function checkAccess(rule: Access, caller: Caller): void {
  if (rule.kind === 'public') return;
  if (caller.kind === 'guest') throw new AppError('UNAUTHENTICATED', 'this operation needs a bearer token');
  if (rule.kind === 'customer') {
    if (caller.kind !== 'customer') throw new AppError('FORBIDDEN', 'this operation needs a customer token');
    return;
  }
  if (caller.kind === 'customer') {
    if (rule.kind === 'customerOrAdmin') return;
    throw new AppError('FORBIDDEN', 'this operation needs an admin token');
  }
  if (!hasAnyRole(caller.roles, rule.roles)) {
    throw new AppError('FORBIDDEN', 'the admin token lacks a role this operation needs');
  }
}

/** The access rule in words, for the operation's documentation. */
function whoMayCall(rule: Access): string {
  if (rule.kind === 'customer') return 'Needs a customer token.';
  const roles = 'roles' in rule && rule.roles.length > 0 ? ` holding role ${rule.roles.join(' or ')}` : '';
  const admin = `an admin token${roles} (Superuser passes)`;
  return rule.kind === 'admin' ? `Needs ${admin}.` : `Needs a customer token (own records only) or ${admin}.`;
}

/**
 * Documents a public route: a token is optional and, when sent, must be valid and selects what
 * the answer holds (a customer's cart, prices and fields), so SDKs that attach tokens keep sending
 * them. Logging in, registering and refreshing take no bearer token at all.
 */
function documentPublic(route: RouteOptions): void {
  if (!route.schema || route.schema.hide) return;
  const schema = route.schema as Record<string, unknown>;
  const credentialCall = route.url.startsWith('/rest/auth/');
  schema.security = credentialCall ? [] : [{}, { bearer: [] }];
  const who = credentialCall
    ? 'Anyone may call it; no bearer token is needed.'
    : 'Anyone may call it. A bearer token is optional: when sent it must be valid, and a customer or admin token selects what the answer holds.';
  schema.description = [schema.description, who].filter(Boolean).join('\n\n');
}

/**
 * Installs the access check of every /rest route from its `config.access`, and documents it.
 * A /rest route without a declaration stops the start, so no route can forget its guard.
 */
export function installAccessGuard(route: RouteOptions): void {
  if (!route.url.startsWith('/rest')) return;
  const rule = (route.config as { access?: Access } | undefined)?.access;
  if (!rule) throw new Error(`route ${route.method} ${route.url} declares no config.access`);
  if (rule.kind === 'public') {
    documentPublic(route);
    return;
  }
  const guard = async (request: FastifyRequest, _reply: FastifyReply) => checkAccess(rule, request.caller);
  // At onRequest, before the body is read or validated: a caller without access learns nothing
  // about the input rules, and no work is spent on a body that will be refused.
  const existing = route.onRequest;
  route.onRequest = existing ? [guard, ...(Array.isArray(existing) ? existing : [existing])] : [guard];
  if (route.schema && !route.schema.hide) {
    const schema = route.schema as Record<string, unknown> & { response?: Record<string, unknown> };
    schema.security = [{ bearer: [] }];
    schema.description = [schema.description, whoMayCall(rule)].filter(Boolean).join('\n\n');
    schema.response ??= {};
    schema.response[403] ??= errorResponse(403);
  }
}

/** The caller's customer id, for routes that accept only customers. */
export function customerIdOf(caller: Caller): number {
  if (caller.kind !== 'customer') throw new AppError('FORBIDDEN', 'this operation needs a customer token');
  return caller.customerId;
}

/** The acting admin's token subject, for routes that accept only admins (the audit log's actor). */
export function adminSubOf(caller: Caller): string {
  if (caller.kind !== 'admin') throw new AppError('FORBIDDEN', 'this operation needs an admin token');
  return caller.sub;
}
