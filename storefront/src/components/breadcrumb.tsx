import type { PageContext } from '../types.ts';

/** Home › the category's ancestors › the category (› the product). The last item is the page itself. */
export function Breadcrumb(props: {
  ctx: PageContext;
  trail: { name: string; slug: string }[];
  current?: string;
}) {
  const { ctx } = props;
  return (
    <nav class="breadcrumb" aria-label={ctx.t.breadcrumb}>
      <ol>
        <li>
          <a href={ctx.href('/')}>{ctx.t.home}</a>
        </li>
        {props.trail.map((category, i) =>
          i === props.trail.length - 1 && !props.current ? (
            <li aria-current="page">{category.name}</li>
          ) : (
            <li>
              <a href={ctx.href(`/c/${encodeURIComponent(category.slug)}`)}>{category.name}</a>
            </li>
          ),
        )}
        {props.current && <li aria-current="page">{props.current}</li>}
      </ol>
    </nav>
  );
}
