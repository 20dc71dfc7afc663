import { Type } from '@sinclair/typebox';
import { Envelope } from '../../http/envelope.ts';
import type { EffectiveSettings } from './registry.ts';

export const SettingKeyParams = Type.Object({
  key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', maxLength: 64 }),
});

export const SettingEntry = Type.Object({
  key: Type.String(),
  value: Type.Unknown({ description: 'The effective value' }),
  defaultValue: Type.Unknown(),
  source: Type.Union([Type.Literal('database'), Type.Literal('config'), Type.Literal('default')]),
  description: Type.String(),
});

export const PutSettingBody = Type.Object(
  { value: Type.Unknown({ description: 'Checked against the key’s type' }) },
  { additionalProperties: false, required: ['value'] },
);

/** The locales the catalog is served in (docs/translations.md), for every back-office screen that edits texts. */
export const ServedLocales = Envelope(
  Type.Object({
    locales: Type.Array(Type.String({ pattern: '^[a-z]{2}$' }), {
      description: 'The locales served, the default first (settings locales and default_locale)',
    }),
    defaultLocale: Type.String({ pattern: '^[a-z]{2}$', description: "The locale of the entities' own fields" }),
  }),
);

export const Features = Envelope(
  Type.Object({
    loyalty: Type.Boolean(),
    giftPackaging: Type.Boolean(),
    wishlist: Type.Boolean(),
    guestCheckout: Type.Boolean(),
  }),
);

const Labels = Type.Record(Type.String(), Type.String());
const AppVersion = Type.Object({ minimumVersion: Type.String(), storeUrl: Type.String({ format: 'uri' }) });

export const StorefrontConfig = Envelope(
  Type.Object({
    listing: Type.Object({
      perPageDefault: Type.Integer(),
      perPageOptions: Type.Array(Type.Integer()),
      perPageMax: Type.Integer({ description: 'Advisory; not the page-size ceiling' }),
    }),
    loyalty: Type.Object({ spendPoints: Type.Integer(), rewardCashPerUnit: Type.Number() }),
    shipping: Type.Object({ freeShippingThreshold: Type.Number({ description: 'Display only' }) }),
    videoShowcase: Type.Object({ homepageLimit: Type.Integer() }),
    priceTracking: Type.Object({ enabled: Type.Boolean(), discountLabel: Labels, badgeLabel: Labels }),
    appUpdate: Type.Object({ android: AppVersion, ios: AppVersion }),
    home: Type.Object({ heroSliderGroupId: Type.Integer(), heroSliderLimit: Type.Integer() }),
  }),
);

export function featuresOf(s: EffectiveSettings) {
  return {
    loyalty: s.feature_loyalty,
    giftPackaging: s.feature_gift_packaging,
    wishlist: s.feature_wishlist,
    guestCheckout: s.feature_guest_checkout,
  };
}

/** Spec 4.8: the registry's values as named sections. */
export function storefrontConfigOf(s: EffectiveSettings) {
  return {
    listing: {
      perPageDefault: s.products_list_default,
      perPageOptions: s.products_list_options,
      perPageMax: s.products_list_max,
    },
    loyalty: { spendPoints: s.loyalty_spend_points, rewardCashPerUnit: s.loyalty_reward_cash_per_unit },
    shipping: { freeShippingThreshold: s.free_shipping_threshold },
    videoShowcase: { homepageLimit: s.video_homepage_limit },
    priceTracking: {
      enabled: s.price_tracking_enabled,
      discountLabel: s.price_tracking_discount_label,
      badgeLabel: s.price_tracking_badge_label,
    },
    appUpdate: {
      android: { minimumVersion: s.app_android_min_version, storeUrl: s.app_android_store_url },
      ios: { minimumVersion: s.app_ios_min_version, storeUrl: s.app_ios_store_url },
    },
    home: { heroSliderGroupId: s.home_hero_slider_group_id, heroSliderLimit: s.home_hero_slider_limit },
  };
}
