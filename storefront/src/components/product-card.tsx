import type { ComponentChildren } from 'preact';
import type { Product } from '../catalog.ts';
import type { PageContext } from '../types.ts';
import { Picture } from './picture.tsx';
import { Price, type PriceLabels } from './price.tsx';

/** The products of a list: category, search, home. */
export function ProductGrid(props: {
  ctx: PageContext;
  products: Product[];
  labels: PriceLabels;
  /** The product's name as shown (search highlights the words found). */
  name?: (product: Product) => ComponentChildren;
  /** The heading level of a card's name: below the page's own headings. */
  headingLevel?: 2 | 3;
}) {
  const { ctx } = props;
  const Heading = props.headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul class="grid">
      {props.products.map((product) => (
        <li>
          <article class="card">
            <a href={ctx.href(`/p/${encodeURIComponent(product.slug)}`)}>
              <Picture
                image={product.media[0]}
                alt=""
                sizes="(max-width: 480px) 50vw, 200px"
                fallbackWidth={320}
              />
              <Heading>{props.name ? props.name(product) : product.name}</Heading>
            </a>
            <Price
              price={product.price}
              referencePrice={product.referencePrice}
              locale={ctx.locale}
              labels={props.labels}
            />
            <p class={`stock ${product.stockStatus}`}>{stockText(ctx, product.stockStatus)}</p>
          </article>
        </li>
      ))}
    </ul>
  );
}

export function stockText(ctx: PageContext, status: Product['stockStatus']): string {
  if (status === 'in_stock') return ctx.t.inStock;
  if (status === 'low_stock') return ctx.t.lowStock;
  return ctx.t.outOfStock;
}
