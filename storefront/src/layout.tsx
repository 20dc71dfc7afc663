import { type ComponentChildren, createElement } from 'preact';
import { assetPath, INLINE_STYLES } from './assets.ts';
import { LOCALES, MESSAGES } from './i18n.ts';
import type { Head, PageContext } from './types.ts';

export interface NavCategory {
  name: string;
  slug: string;
}

/** JSON inside <script>: `<` escaped so no text of the catalog can close the element. */
function jsonForScript(value: object): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The whole document: head (title, canonical, hreflang, styles), header, the page, footer. */
export function Document(props: {
  ctx: PageContext;
  head: Head;
  nav: NavCategory[];
  scripts: string[];
  children: ComponentChildren;
}) {
  const { ctx, head, nav } = props;
  const { t } = ctx;
  const styles = assetPath('styles');
  const scripts = ['enhance', ...props.scripts].map(assetPath).filter((path): path is string => !!path);
  const alternates = head.alternates ?? {};
  return (
    <html lang={ctx.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${head.title} · ${t.shopName}`}</title>
        {/* No icon of its own yet: an empty one spares the browser a request for /favicon.ico. */}
        <link rel="icon" href="data:," />
        {head.description && <meta name="description" content={head.description} />}
        {head.noindex && <meta name="robots" content="noindex" />}
        {head.canonical && <link rel="canonical" href={`${ctx.origin}${head.canonical}`} />}
        {LOCALES.filter((locale) => alternates[locale]).map((locale) => (
          <link rel="alternate" hreflang={locale} href={`${ctx.origin}${alternates[locale]}`} />
        ))}
        {alternates.en && (
          <link rel="alternate" hreflang="x-default" href={`${ctx.origin}${alternates.en}`} />
        )}
        {head.preloadImage && <PreloadImage {...head.preloadImage} />}
        {INLINE_STYLES ? (
          // The one style sheet (under 2 KB gzip) inline: the first paint waits for no request.
          <style dangerouslySetInnerHTML={{ __html: INLINE_STYLES.text }} />
        ) : (
          styles && <link rel="stylesheet" href={styles} />
        )}
        {scripts.map((src) => (
          <script type="module" src={src} />
        ))}
        {head.jsonLd && (
          // A JSON data block, escaped by jsonForScript.
          <script
            type="application/ld+json"
            dangerouslySetInnerHTML={{ __html: jsonForScript(head.jsonLd) }}
          />
        )}
      </head>
      <body>
        <a class="skip" href="#main">
          {t.skipToContent}
        </a>
        <header class="site-header">
          <div class="bar">
            <a class="brand" href={ctx.href('/')}>
              {t.shopName}
            </a>
            <search class="search">
              <form method="get" action={ctx.href('/search')}>
                <label class="visually-hidden" for="site-search">
                  {t.search}
                </label>
                <input
                  id="site-search"
                  type="search"
                  name="q"
                  placeholder={t.searchPlaceholder}
                  value={ctx.query.get('q') ?? ''}
                />
                <button type="submit">{t.search}</button>
              </form>
            </search>
            <nav class="tools" aria-label={t.account}>
              <a href={ctx.href('/account')}>{t.account}</a>
              <a href={ctx.href('/cart')} data-cart-link>
                {t.cart}
              </a>
            </nav>
            <LanguageSwitch ctx={ctx} alternates={alternates} />
          </div>
          <nav class="categories" aria-label={t.categories}>
            <ul>
              {nav.map((category) => (
                <li>
                  <a href={ctx.href(`/c/${category.slug}`)}>{category.name}</a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main">{props.children}</main>
        <footer class="site-footer">
          <p>{t.footerText}</p>
          <p>© {t.shopName}</p>
        </footer>
      </body>
    </html>
  );
}

/** Links to this page in the other locales (their home page when the page has no alternate). */
function LanguageSwitch(props: { ctx: PageContext; alternates: Head['alternates'] }) {
  const { ctx } = props;
  return (
    <nav class="languages" aria-label={ctx.t.language}>
      <ul>
        {LOCALES.map((locale) => (
          <li>
            {locale === ctx.locale ? (
              <span aria-current="true" lang={locale}>
                {MESSAGES[locale].lang}
              </span>
            ) : (
              <a href={props.alternates?.[locale] ?? ctx.href('/', locale)} hreflang={locale} lang={locale}>
                {MESSAGES[locale].lang}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * `<link rel=preload as=image>` with the image's srcset and sizes, so the browser fetches the copy
 * it will show. Written through createElement: Preact's types know no `imagesizes` yet.
 */
function PreloadImage(props: NonNullable<Head['preloadImage']>) {
  const attributes: Record<string, string> = {
    rel: 'preload',
    as: 'image',
    href: props.href,
    imagesizes: props.sizes,
    fetchpriority: 'high',
  };
  if (props.srcset) attributes.imagesrcset = props.srcset;
  return createElement('link', attributes);
}
