import { Type } from '@sinclair/typebox';

// What a browser may never read as another scheme or another site: whitespace and control
// characters (browsers drop them, so "java\tscript:" runs as "javascript:") and backslashes
// (browsers read "/\host" as "//host"); nor quotes and angle brackets, which no URL holds
// unencoded and which would end an HTML attribute.
const URL_CHAR = '[^\\s\\x00-\\x1f\\x7f\\\\"<>`]';
const HOST_CHAR = '[^\\s\\x00-\\x1f\\x7f\\\\"<>`/?#@]';
/** http(s) with a host and no user:password@ part (it would carry credentials or e-mails). */
const ABSOLUTE = `https?://${HOST_CHAR}+([/?#]${URL_CHAR}*)?`;
/** A path of the shop's own site: one slash, never two ("//host" is another site). */
const PATH = `/([^\\s\\x00-\\x1f\\x7f\\\\"<>\`/]${URL_CHAR}*)?`;
/** Every link and media address: an http(s) URL or a path starting with one `/` (docs/security.md, "Input"). */
const WEB_URL = `^(${ABSOLUTE}|${PATH})$`;
const ABSOLUTE_WEB_URL = `^${ABSOLUTE}$`;
const MESSAGES: Record<string, string> = {
  [WEB_URL]: 'must be an http(s) URL or a path starting with one /',
  [ABSOLUTE_WEB_URL]: 'must be an http(s) URL',
};

/** What to tell a client whose value does not match `pattern`, when it is a web address's. */
export function webUrlMessage(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? MESSAGES[pattern] : undefined;
}

/**
 * The one schema of a link or media address; `absolute` when a path means nothing where the
 * address is used (an app store, a tracking page in an e-mail). No `format`: the pattern says it
 * all, and the same schema is checked by Ajv and by TypeBox (which knows no formats).
 */
export function WebUrl(o: { absolute?: boolean; maxLength?: number; description?: string } = {}) {
  const description = o.absolute ? 'An http(s) URL' : 'An http(s) URL or a path starting with one /';
  return Type.String({
    minLength: 1,
    maxLength: o.maxLength ?? 2000,
    pattern: o.absolute ? ABSOLUTE_WEB_URL : WEB_URL,
    description: o.description ?? description,
  });
}
