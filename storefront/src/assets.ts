// The hashed public paths of the browser scripts and the style sheet, written into the bundle by
// scripts/build-storefront.mjs (`define`). A page names a script by its file in src/client/.
declare const __STOREFRONT_ASSETS__: Record<string, string>;

const ASSETS: Record<string, string> =
  typeof __STOREFRONT_ASSETS__ === 'undefined' ? {} : __STOREFRONT_ASSETS__;

export function assetPath(name: string): string | undefined {
  return ASSETS[name];
}

declare const __STOREFRONT_STYLES__: { text: string; hash: string };

/** The style sheet's text, written inline into every page, and the CSP hash that allows it. */
export const INLINE_STYLES: { text: string; hash: string } | undefined =
  typeof __STOREFRONT_STYLES__ === 'undefined' ? undefined : __STOREFRONT_STYLES__;
