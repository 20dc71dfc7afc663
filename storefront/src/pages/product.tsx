import { unwrap } from '@shop/client';
import { type Product, slugIn, trailOf, type Variant } from '../catalog.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { fallbackSrc, Picture } from '../components/picture.tsx';
import { Price, priceLabels } from '../components/price.tsx';
import { stockText } from '../components/product-card.tsx';
import { formatPrice, LOCALES } from '../i18n.ts';
import type { Head, Page, PageContext } from '../types.ts';

/** The main image fills a phone's width, half a larger screen's. */
const MAIN_IMAGE_SIZES = '(max-width: 768px) 100vw, 50vw';

/** What the variant picker script reads (storefront/src/client/product.ts): no inline script. */
export interface PickerData {
  options: { name: string; values: string[] }[];
  variants: {
    id: number;
    options: Record<string, string>;
    price: string;
    referencePrice: string | null;
    inStock: boolean;
    stock: string;
  }[];
}

export const productPage: Page = async (ctx) => {
  const answer = await ctx.api.api.GET('/rest/product/product/item', {
    params: { query: { slug: ctx.params.slug, with: 'variants' } },
  });
  if (answer.response.status === 404) return { kind: 'not-found' };
  const product = unwrap(answer).data;
  // An old or other-locale slug: the page lives at this locale's slug.
  if (product.slug !== ctx.params.slug) {
    return { kind: 'redirect', status: 301, location: ctx.href(`/p/${encodeURIComponent(product.slug)}`) };
  }
  const [category, otherSlugs, config] = await Promise.all([
    product.categoryId
      ? ctx.api.api
          .GET('/rest/product/category/{id}', { params: { path: { id: product.categoryId } } })
          .then((c) => (c.data ? trailOf(ctx, c.data.data) : undefined))
      : undefined,
    Promise.all(
      LOCALES.map(async (locale) => [locale, await slugIn(ctx, 'product', product.id, locale)] as const),
    ),
    ctx.config(),
  ]);
  const alternates: Head['alternates'] = {};
  for (const [locale, slug] of otherSlugs) {
    alternates[locale] = ctx.href(`/p/${encodeURIComponent(slug ?? product.slug)}`, locale);
  }
  const variants = (product.variants ?? []).filter((variant) => variant.active);
  const labels = priceLabels(config, ctx.locale, ctx.t);
  const canonical = ctx.href(`/p/${encodeURIComponent(product.slug)}`);
  const hasOptions = product.options.length > 0;
  return {
    kind: 'page',
    head: {
      title: product.name,
      description: summary(product.description),
      canonical,
      alternates,
      jsonLd: productJsonLd(ctx, product, variants, canonical),
      preloadImage: product.media[0] && {
        href: fallbackSrc(product.media[0], 640),
        srcset: product.media[0].srcset,
        sizes: MAIN_IMAGE_SIZES,
      },
    },
    scripts: hasOptions ? ['product'] : [],
    body: (
      <>
        {category && <Breadcrumb ctx={ctx} trail={category} current={product.name} />}
        <article class="product">
          <Gallery product={product} />
          <div class="buy">
            <h1>{product.name}</h1>
            {product.brand && (
              <p class="product-brand">
                {ctx.t.brand}: {product.brand}
              </p>
            )}
            <div data-price-block>
              <Price
                price={product.price}
                referencePrice={product.referencePrice}
                locale={ctx.locale}
                labels={labels}
              />
            </div>
            <p class={`stock ${product.stockStatus}`} data-stock>
              {stockText(ctx, product.stockStatus)}
            </p>
            <AddToCart ctx={ctx} product={product} variants={variants} />
            <p class="sku">
              {ctx.t.sku}: {product.sku}
            </p>
          </div>
        </article>
        {product.description && (
          <section class="description">
            <h2>{ctx.t.description}</h2>
            {product.description.split(/\n{2,}/).map((paragraph) => (
              <p>{paragraph}</p>
            ))}
          </section>
        )}
        {hasOptions && (
          <PickerDataBlock product={product} variants={variants} ctx={ctx} labels={labels.reference} />
        )}
      </>
    ),
  };
};

function Gallery(props: { product: Product }) {
  const [first, ...rest] = props.product.media;
  return (
    <div class="gallery">
      <Picture image={first} sizes={MAIN_IMAGE_SIZES} fallbackWidth={640} priority />
      {rest.length > 0 && (
        <ul class="thumbs">
          {rest.map((image) => (
            <li>
              <a href={`${image.url}?w=1280`}>
                <Picture image={image} sizes="96px" fallbackWidth={128} />
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Without JavaScript: a list of the variants, the sold-out ones disabled. The picker script turns
 * it into one choice per option that disables the combinations no variant in stock has.
 */
function AddToCart(props: { ctx: PageContext; product: Product; variants: Variant[] }) {
  const { ctx, product, variants } = props;
  const available = variants.filter((variant) => variant.inStock);
  const firstAvailable = available[0];
  return (
    <form class="add" method="post" action={ctx.href('/cart/items')} data-add-to-cart>
      {product.options.length > 0 ? (
        <>
          <label class="variants-fallback">
            {ctx.t.chooseVariant}
            <select name="variantId" required data-variant-select>
              {variants.map((variant) => (
                <option value={variant.id} disabled={!variant.inStock} selected={variant === firstAvailable}>
                  {variantLabel(ctx, product, variant)}
                </option>
              ))}
            </select>
          </label>
          <div class="picker" data-picker hidden>
            {product.options.map((option) => (
              <fieldset>
                <legend>{option.name}</legend>
                <div class="choices">
                  {option.values.map((value) => (
                    <label>
                      <input
                        type="radio"
                        name={`option.${option.name}`}
                        value={value}
                        checked={firstAvailable?.options[option.name] === value}
                        disabled={!available.some((variant) => variant.options[option.name] === value)}
                      />
                      <span>{value}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
            ))}
          </div>
        </>
      ) : (
        <input type="hidden" name="variantId" value={variants[0]?.id ?? ''} />
      )}
      <label>
        {ctx.t.quantity}
        <input type="number" name="qty" value="1" min="1" max="99" inputMode="numeric" />
      </label>
      <button type="submit" disabled={!product.inStock} data-add-button>
        {product.inStock ? ctx.t.addToCart : ctx.t.outOfStock}
      </button>
    </form>
  );
}

function variantLabel(ctx: PageContext, product: Product, variant: Variant): string {
  const options = product.options.map((option) => variant.options[option.name]).join(' / ');
  const price = formatPrice(variant.price ?? product.price, ctx.locale);
  return `${options} — ${price}${variant.inStock ? '' : ` (${ctx.t.soldOut})`}`;
}

function PickerDataBlock(props: { ctx: PageContext; product: Product; variants: Variant[]; labels: string }) {
  const { ctx, product } = props;
  const data: PickerData = {
    options: product.options,
    variants: props.variants.map((variant) => {
      const price = variant.price ?? product.price;
      const reference = variant.referencePrice ?? null;
      return {
        id: variant.id,
        options: variant.options,
        price: formatPrice(price, ctx.locale),
        referencePrice: reference != null && reference > price ? formatPrice(reference, ctx.locale) : null,
        inStock: variant.inStock,
        stock: stockText(ctx, variant.stockStatus),
      };
    }),
  };
  return (
    <script
      type="application/json"
      id="picker-data"
      // A JSON data block, never run: `<` escaped so no text can end the element.
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }}
    />
  );
}

function summary(description: string): string | undefined {
  const text = description.replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** schema.org Product with its offers: price, currency and availability (what search engines show). */
function productJsonLd(ctx: PageContext, product: Product, variants: Variant[], canonical: string): object {
  const availability = (inStock: boolean) =>
    inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock';
  const offer = (price: number, inStock: boolean, sku: string) => ({
    '@type': 'Offer',
    sku,
    price: price.toFixed(2),
    priceCurrency: product.currency,
    availability: availability(inStock),
    url: `${ctx.origin}${canonical}`,
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: summary(product.description),
    sku: product.sku,
    ...(product.brand ? { brand: { '@type': 'Brand', name: product.brand } } : {}),
    image: product.media.map((image) => `${ctx.origin}${image.url}`),
    offers:
      variants.length > 1
        ? variants.map((variant) => offer(variant.price ?? product.price, variant.inStock, variant.sku))
        : offer(product.price, product.inStock, product.sku),
  };
}
