import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { toCents } from '../../lib/money.ts';
import { WebUrl, webUrlMessage } from '../../http/web-url.ts';

// The settings registry (docs/resources.md): every key the service knows, its JSON type and its default.
// A value is looked up in three layers: the database (an operator's change) wins over the
// configuration file's `settings`, which wins over the default below.

const Money = (description: string) =>
  Type.Number({
    minimum: 0,
    maximum: 10_000_000,
    description: `${description} (decimal, at most two decimals)`,
  });
// Keys are locale codes and nothing else: a key that is not one is refused, not kept unread.
const Labels = (description: string) =>
  Type.Record(Type.String({ pattern: '^[a-z]{2}(-[A-Za-z]{2})?$' }), Type.String({ maxLength: 200 }), {
    description: `${description}: a map of locale (en, en-GB) → text`,
    maxProperties: 50,
    additionalProperties: false,
  });
const Version = Type.String({ pattern: '^\\d{1,5}(\\.\\d{1,5}){0,3}$', maxLength: 32 });
const StoreUrl = WebUrl({ absolute: true, maxLength: 500, description: 'App store page of the app' });
const Flag = (description: string) => Type.Boolean({ description });
/** A default text of a Labels setting: English only, other locales added by the operator. */
const english = (text: string): Record<string, string> => ({ en: text });
const defaultLocale: 'en' | 'el' = 'en';
/** A language the catalog may be read in: two lower-case letters (ISO 639-1). */
const LocaleCode = (description: string) => Type.String({ pattern: '^[a-z]{2}$', description });

export const SETTINGS = {
  rest_max_page_size: {
    schema: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Storefront page-size ceiling' }),
    default: 1000,
  },
  products_list_default: {
    schema: Type.Integer({ minimum: 1, maximum: 1000, description: 'listing.perPageDefault' }),
    default: 24,
  },
  products_list_options: {
    schema: Type.Array(Type.Integer({ minimum: 1, maximum: 1000 }), {
      minItems: 1,
      maxItems: 20,
      description: 'listing.perPageOptions',
    }),
    default: [24, 48, 72],
  },
  products_list_max: {
    schema: Type.Integer({ minimum: 1, maximum: 1000, description: 'listing.perPageMax (advisory)' }),
    default: 72,
  },
  loyalty_spend_points: {
    schema: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Points per redemption unit' }),
    default: 100,
  },
  loyalty_reward_cash_per_unit: { schema: Money('Cash per redemption unit'), default: 5 },
  free_shipping_threshold: { schema: Money('Free-shipping banner threshold (display only)'), default: 250 },
  video_homepage_limit: {
    schema: Type.Integer({ minimum: 0, maximum: 100, description: 'Reels on the homepage strip' }),
    default: 8,
  },
  price_tracking_enabled: { schema: Flag('Show the EU Omnibus reference price'), default: true },
  price_tracking_discount_label: {
    schema: Labels('Discount label copy'),
    default: english('Lowest price in the last 30 days'),
  },
  price_tracking_badge_label: {
    schema: Labels('Discount badge copy'),
    default: english('Deal'),
  },
  app_android_min_version: { schema: Version, default: '1.0.0' },
  app_android_store_url: {
    schema: StoreUrl,
    default: 'https://play.google.com/store/apps/details?id=com.example.shop',
  },
  app_ios_min_version: { schema: Version, default: '1.0.0' },
  app_ios_store_url: { schema: StoreUrl, default: 'https://apps.apple.com/app/id0000000000' },
  home_hero_slider_group_id: {
    schema: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'Slider group of the home hero',
    }),
    default: 1,
  },
  home_hero_slider_limit: { schema: Type.Integer({ minimum: 1, maximum: 100 }), default: 5 },
  gift_packaging_price: { schema: Money('Gift packaging price'), default: 9.99 },
  default_vat_rate: {
    schema: Type.Number({ minimum: 0, maximum: 100, description: 'VAT percent for new products' }),
    default: 19,
  },
  currency: { schema: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' }), default: 'EUR' },
  cart_max_line_qty: {
    // 999 is what a cart line can hold at all (cart_line_qty_check).
    schema: Type.Integer({
      minimum: 1,
      maximum: 999,
      description: 'Most units of one product in a cart line',
    }),
    default: 100,
  },
  order_max_units: {
    schema: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'Most units (the cart lines’ quantities summed) in one order',
    }),
    default: 200,
  },
  cod_max_total: {
    schema: Money('Largest order total paid cash on delivery; above it the buyer chooses another payment'),
    default: 500,
  },
  unpaid_order_alert_total: {
    schema: Money('The back-office dashboard lists unpaid orders whose total is above this'),
    default: 300,
  },
  feature_loyalty: { schema: Flag('features.loyalty'), default: true },
  feature_gift_packaging: { schema: Flag('features.giftPackaging'), default: true },
  feature_wishlist: { schema: Flag('features.wishlist'), default: true },
  feature_guest_checkout: { schema: Flag('features.guestCheckout'), default: true },
  locales: {
    schema: Type.Array(LocaleCode('A locale code'), {
      minItems: 1,
      maxItems: 20,
      uniqueItems: true,
      description: 'Locales the catalog is served in (docs/translations.md); the default locale is always one',
    }),
    default: ['en', 'el'],
  },
  default_locale: {
    schema: LocaleCode("The locale of the entities' own fields, served when the request asks for none"),
    default: 'en',
  },
  locale: {
    schema: Type.Union([Type.Literal('en'), Type.Literal('el')], { description: 'Language of e-mails' }),
    default: defaultLocale,
  },
  require_email_verification: {
    schema: Flag('New customers confirm their e-mail address before placing orders'),
    default: false,
  },
  timezone: {
    schema: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*$',
      description:
        'IANA time zone of the shop (e.g. Europe/Athens): reports count days, weeks and months in it',
    }),
    default: 'UTC',
  },
  /** Read by the stock trigger (drizzle/0010) from the stored setting; a value in the config file is not seen there. */
  payment_methods_enabled: {
    schema: Type.Array(
      Type.Union([Type.Literal('delivery'), Type.Literal('bank_transfer'), Type.Literal('card')]),
      { uniqueItems: true, maxItems: 3, description: 'The payWay codes checkout offers' },
    ),
    default: ['delivery', 'bank_transfer', 'card'] as ('delivery' | 'bank_transfer' | 'card')[],
  },
  payment_capture_mode: {
    schema: Type.Union([Type.Literal('automatic'), Type.Literal('manual')], {
      description:
        'Card payments: taken at the order (automatic) or authorized, then captured at the first shipment',
    }),
    default: 'automatic' as 'automatic' | 'manual',
  },
  stock_low_threshold: {
    schema: Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      description: 'product.stock_low when stock falls to it',
    }),
    default: 5,
  },
  tax_mode: {
    schema: Type.Union([Type.Literal('origin'), Type.Literal('destination')], {
      description:
        "VAT inside prices: each product's vatRate (origin) or the buyer's country's rate for the product's taxClass (destination)",
    }),
    default: 'origin' as 'origin' | 'destination',
  },
  shop_country: {
    schema: Type.String({
      pattern: '^[A-Z]{2}$',
      description: "The shop's own country (ISO 3166-1 alpha-2)",
    }),
    default: 'GR',
  },
  b2b_reverse_charge: {
    schema: Flag('A business buyer of another EU country with a confirmed VAT id pays the net amount'),
    default: false,
  },
} satisfies Record<string, { schema: TSchema; default: unknown }>;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = Static<(typeof SETTINGS)[K]['schema']>;
/** Every key with its effective value. */
export type EffectiveSettings = { [K in SettingKey]: SettingValue<K> };

/** Keys holding a money amount as a decimal; read them in cents with `settingCents`. */
export type MoneySettingKey =
  | 'loyalty_reward_cash_per_unit'
  | 'free_shipping_threshold'
  | 'gift_packaging_price'
  | 'cod_max_total'
  | 'unpaid_order_alert_total';
const MONEY_KEYS = new Set<string>([
  'loyalty_reward_cash_per_unit',
  'free_shipping_threshold',
  'gift_packaging_price',
  'cod_max_total',
  'unpaid_order_alert_total',
]);

export const SETTING_KEYS: readonly SettingKey[] = Object.keys(SETTINGS).filter(isSettingKey);

const compiled = (key: SettingKey): TypeCheck<TSchema> => TypeCompiler.Compile(SETTINGS[key].schema);
const checks = new Map(SETTING_KEYS.map((key) => [key, compiled(key)]));

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

/** The deepest nesting and the JSON size a stored value may have (docs/security.md, "Input"). */
export const SETTING_MAX_DEPTH = 8;
export const SETTING_MAX_BYTES = 64 * 1024;

/**
 * Why a value is too deep or too large to keep, checked before its type, which walks the value
 * (as do the audit and the database): a value nested thousands deep answered 500, not 400.
 */
function shapeProblem(value: unknown): string | null {
  // A single string or number is bounded by its key's schema.
  if (value === null || typeof value !== 'object') return null;
  // Iterative, depth first: a deep value is found after at most SETTING_MAX_DEPTH + 1 steps down.
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= SETTING_MAX_DEPTH) return `is nested more than ${SETTING_MAX_DEPTH} levels deep`;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  if (Buffer.byteLength(JSON.stringify(value)) > SETTING_MAX_BYTES) {
    return `is larger than ${SETTING_MAX_BYTES / 1024} KiB as JSON`;
  }
  return null;
}

/** Why a value is not acceptable for a key, or null when it is. */
export function settingProblem(key: SettingKey, value: unknown): string | null {
  const shape = shapeProblem(value);
  if (shape) return shape;
  const check = checks.get(key) ?? compiled(key);
  if (!check.Check(value)) {
    const first = check.Errors(value).First();
    const where = first?.path ? ` at ${first.path}` : '';
    return `${webUrlMessage(first?.schema.pattern) ?? first?.message ?? 'is not valid'}${where}`;
  }
  // The schema check above made a time zone a string and a money amount a number.
  if (key === 'timezone' && typeof value === 'string' && !isTimeZone(value)) {
    return 'is not a known IANA time zone';
  }
  if (MONEY_KEYS.has(key) && typeof value === 'number') {
    try {
      toCents(value);
    } catch {
      return 'must have at most two decimals';
    }
  }
  return null;
}

/** True when `value` is acceptable for `key`: its type, its shape and the key's own rules. */
export function isSettingValue<K extends SettingKey>(key: K, value: unknown): value is SettingValue<K> {
  return settingProblem(key, value) === null;
}

/** True for a time zone name the runtime knows (the database knows the same IANA names). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Every key's default, a copy of its own (a caller may change or freeze it). */
export function defaultSettings(): EffectiveSettings {
  const defaults = structuredClone(Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTINGS[k].default])));
  if (!isEffectiveSettings(defaults)) throw new Error('a setting default does not fit its own schema');
  return defaults;
}

function isEffectiveSettings(values: Record<string, unknown>): values is EffectiveSettings {
  return SETTING_KEYS.every((key) => isSettingValue(key, values[key]));
}
