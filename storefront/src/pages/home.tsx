import { type Schemas, unwrap } from '@shop/client';
import { Picture } from '../components/picture.tsx';
import { priceLabels } from '../components/price.tsx';
import { ProductGrid } from '../components/product-card.tsx';
import type { Page, PageContext } from '../types.ts';

type Slide = Schemas['Slider'];
type Reel = Schemas['Reel'];

/** How many products each row of the home page shows. */
const ROW = 8;

/**
 * Home: the hero slides of the slider group storefront-config names, the reels (as many as it
 * says), the products on sale (the shop's featured ones) and the newest arrivals.
 */
export const homePage: Page = async (ctx) => {
  const config = await ctx.config();
  const [slides, reels, featured, newest] = await Promise.all([
    ctx.api.api
      .GET('/rest/cms/slider', {
        params: {
          query: {
            groupId: String(config.home.heroSliderGroupId),
            sort: 'position',
            limit: config.home.heroSliderLimit,
          },
        },
      })
      .then((answer) => unwrap(answer).data),
    config.videoShowcase.homepageLimit > 0
      ? ctx.api.api
          .GET('/rest/cms/reel', {
            params: {
              query: { sort: 'position', limit: config.videoShowcase.homepageLimit, with: 'products' },
            },
          })
          .then((answer) => unwrap(answer).data)
      : [],
    ctx.api.api
      .GET('/rest/product/product', { params: { query: { onSale: 'true', inStock: 'true', limit: ROW } } })
      .then((answer) => unwrap(answer).data),
    ctx.api.api
      .GET('/rest/product/product', { params: { query: { sort: '-id', inStock: 'true', limit: ROW } } })
      .then((answer) => unwrap(answer).data),
  ]);
  const labels = priceLabels(config, ctx.locale, ctx.t);
  return {
    kind: 'page',
    head: {
      title: ctx.t.home,
      description: ctx.t.homeDescription,
      canonical: ctx.href('/'),
      alternates: { el: ctx.href('/', 'el'), en: ctx.href('/', 'en') },
    },
    body: (
      <>
        <h1 class="visually-hidden">{ctx.t.shopName}</h1>
        {slides.length > 0 && <Hero ctx={ctx} slides={slides} />}
        {featured.length > 0 && (
          <section aria-labelledby="featured">
            <h2 id="featured">{ctx.t.featured}</h2>
            <ProductGrid ctx={ctx} products={featured} labels={labels} headingLevel={3} />
          </section>
        )}
        {reels.length > 0 && <Reels ctx={ctx} reels={reels} />}
        {newest.length > 0 && (
          <section aria-labelledby="newest">
            <h2 id="newest">{ctx.t.newArrivals}</h2>
            <ProductGrid ctx={ctx} products={newest} labels={labels} headingLevel={3} />
          </section>
        )}
      </>
    ),
  };
};

/**
 * A slide's link as a path of this storefront: the CMS writes shop paths without a locale
 * (`/category/<slug>`, `/product/<slug>`); other paths of the shop have no page here and are not linked.
 */
export function slideHref(ctx: PageContext, linkUrl: string | null): string | undefined {
  if (!linkUrl) return undefined;
  if (/^https?:\/\//.test(linkUrl)) return linkUrl;
  const match = /^\/(category|product|c|p)\/([^/?#]+)/.exec(linkUrl);
  if (!match) return undefined;
  return ctx.href(`/${match[1]?.[0]}/${match[2]}`);
}

/** The slides side by side, scrolled by swipe or keyboard (scroll snapping, no script needed). */
function Hero(props: { ctx: PageContext; slides: Slide[] }) {
  return (
    <section aria-label={props.ctx.t.highlights}>
      <ul class="hero">
        {props.slides.map((slide, i) => {
          const href = slideHref(props.ctx, slide.linkUrl);
          const caption = (
            <div class="caption">
              <h2>{slide.title}</h2>
              {slide.subtitle && <p>{slide.subtitle}</p>}
            </div>
          );
          return (
            <li class={slide.media.length ? 'slide' : 'slide text-only'}>
              {/* Only images of the shop's media: an address elsewhere may be slow or gone. */}
              {slide.media[0] && (
                <Picture
                  image={slide.media[0]}
                  alt=""
                  sizes="100vw"
                  fallbackWidth={1280}
                  priority={i === 0}
                />
              )}
              {href ? <a href={href}>{caption}</a> : caption}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Reels(props: { ctx: PageContext; reels: Reel[] }) {
  const { ctx } = props;
  return (
    <section aria-labelledby="reels">
      <h2 id="reels">{ctx.t.reels}</h2>
      <ul class="reels">
        {props.reels.map((reel) => (
          <li>
            <article class="reel">
              {reel.media[0] && <Picture image={reel.media[0]} alt="" sizes="200px" fallbackWidth={320} />}
              <h3>
                <a href={reel.videoUrl} rel="noopener">
                  {reel.title}
                </a>
              </h3>
              {(reel.products ?? []).length > 0 && (
                <ul class="reel-products">
                  {(reel.products ?? []).map((product) => (
                    <li>
                      <a href={ctx.href(`/p/${encodeURIComponent(product.slug)}`)}>{product.name}</a>
                    </li>
                  ))}
                </ul>
              )}
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
