// A shopper of the storefront through the service's HTTP interface: keeps the cookies the shop
// sets (cart, tokens, last order) like a browser, posts forms url-encoded and reads the HTML.
import type { App } from '../../src/app.ts';

export interface Answer {
  status: number;
  location: string | undefined;
  html: string;
}

/** Visible text of an HTML fragment: tags removed, entities of the renderer decoded. */
export function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ');
}

/** The value of a form field in HTML (`<input name=… value=…>`). */
export function fieldValue(html: string, name: string): string | undefined {
  for (const match of html.matchAll(/<input [^>]*>/g)) {
    const tag = match[0];
    if (!tag.includes(`name="${name}"`)) continue;
    return /value="([^"]*)"/.exec(tag)?.[1];
  }
  return undefined;
}

export class Shopper {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: App,
    readonly locale: 'el' | 'en' = 'en',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(setCookie: string | string[] | undefined): void {
    for (const cookie of [setCookie ?? []].flat()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/Max-Age=0/.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string): Promise<Answer> {
    const response = await this.app.inject({
      url: `/${this.locale}${path}`,
      headers: { cookie: this.cookieHeader() },
    });
    this.keep(response.headers['set-cookie']);
    return {
      status: response.statusCode,
      location: response.headers.location as string,
      html: response.body,
    };
  }

  /** Posts a form as a browser does (same origin); answers the redirect, not where it leads. */
  async post(path: string, form: Record<string, string | string[]>): Promise<Answer> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v);
    const response = await this.app.inject({
      method: 'POST',
      url: `/${this.locale}${path}`,
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
    this.keep(response.headers['set-cookie']);
    return {
      status: response.statusCode,
      location: response.headers.location as string,
      html: response.body,
    };
  }

  /** Posts, then follows a redirect as a browser would (GET). */
  async submit(path: string, form: Record<string, string | string[]>): Promise<Answer> {
    const answer = await this.post(path, form);
    if (answer.status !== 303 || !answer.location) return answer;
    return this.get(answer.location.replace(`/${this.locale}`, ''));
  }
}
