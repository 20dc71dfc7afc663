import type { PageContext, PageResult } from '../types.ts';

/** The answer of any path no route knows and of a product or category that does not exist. */
export function notFoundPage(ctx: PageContext): PageResult {
  return {
    kind: 'page',
    status: 404,
    head: { title: ctx.t.notFoundTitle, noindex: true },
    body: (
      <section class="message">
        <h1>{ctx.t.notFoundTitle}</h1>
        <p>{ctx.t.notFoundText}</p>
        <p>
          <a href={ctx.href('/')}>{ctx.t.backHome}</a>
        </p>
      </section>
    ),
  };
}

/** A failure the shopper cannot fix: what to do, and the request's reference to quote. */
export function errorPage(ctx: PageContext, status: number, reference: string | null): PageResult {
  const busy = status === 503 || status === 429;
  return {
    kind: 'page',
    status: busy ? 503 : 500,
    head: { title: busy ? ctx.t.unavailableTitle : ctx.t.errorTitle, noindex: true },
    body: (
      <section class="message">
        <h1>{busy ? ctx.t.unavailableTitle : ctx.t.errorTitle}</h1>
        <p>{busy ? ctx.t.unavailableText : ctx.t.errorText}</p>
        {reference && (
          <p>
            {ctx.t.errorReference}: <code>{reference}</code>
          </p>
        )}
        <p>
          <a href={ctx.href('/')}>{ctx.t.backHome}</a>
        </p>
      </section>
    ),
  };
}
