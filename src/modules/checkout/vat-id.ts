// EU VAT identification numbers (docs/shipping-and-tax.md): the form of each member state's number
// and, where the state defines one, its check digit. Plain functions; no network.

/** A VAT id read as the tax office writes it: prefix (EL for Greece), number, and the address country. */
export interface VatId {
  /** The VAT prefix and number without spaces, dots or dashes: "EL094014201". */
  text: string;
  prefix: string;
  number: string;
  /** The ISO 3166-1 country of the number (EL → GR, XI → GB). */
  country: string;
}

const FORMS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

const COUNTRY_OF_PREFIX: Record<string, string> = { EL: 'GR', XI: 'GB' };

const digits = (text: string) => [...text].map(Number);
const weighted = (ds: number[], weights: number[]) => weights.reduce((sum, w, i) => sum + w * ds[i], 0);

/** Luhn over all digits (the last one is the check digit). */
function luhn(text: string): boolean {
  let sum = 0;
  [...text].reverse().forEach((c, i) => {
    const d = Number(c) * (i % 2 === 1 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  });
  return sum % 10 === 0;
}

/** Check-digit rules of the states that publish one; the others are checked for form only. */
const CHECKS: Record<string, (n: string) => boolean> = {
  EL: (n) => {
    const d = digits(n);
    return (weighted(d, [256, 128, 64, 32, 16, 8, 4, 2]) % 11) % 10 === d[8];
  },
  DE: (n) => {
    const d = digits(n);
    let product = 10;
    for (let i = 0; i < 8; i++) {
      const sum = (d[i] + product) % 10 || 10;
      product = (2 * sum) % 11;
    }
    return (11 - product) % 10 === d[8];
  },
  IT: luhn,
  BE: (n) => 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8)),
  AT: (n) => {
    const d = digits(n.slice(1));
    let sum = 0;
    for (let i = 0; i < 7; i++) {
      const p = d[i] * (i % 2 === 1 ? 2 : 1);
      sum += p > 9 ? p - 9 : p;
    }
    return (10 - ((sum + 4) % 10)) % 10 === d[7];
  },
  PL: (n) => {
    const d = digits(n);
    return weighted(d, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === d[9];
  },
  PT: (n) => {
    const d = digits(n);
    const check = 11 - (weighted(d, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
    return (check >= 10 ? 0 : check) === d[8];
  },
  DK: (n) => weighted(digits(n), [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0,
  FI: (n) => {
    const d = digits(n);
    const check = 11 - (weighted(d, [7, 9, 10, 5, 8, 4, 2]) % 11);
    return check !== 10 && (check === 11 ? 0 : check) === d[7];
  },
  FR: (n) => !/^\d{2}/.test(n) || Number(n.slice(0, 2)) === (12 + 3 * (Number(n.slice(2)) % 97)) % 97,
  SE: (n) => luhn(n.slice(0, 10)),
};

/** The VAT id read from what a buyer typed, or why it is malformed. */
export function parseVatId(raw: string): VatId | string {
  const text = raw.replace(/[\s.-]/g, '').toUpperCase();
  const prefix = text.slice(0, 2);
  const number = text.slice(2);
  const form = FORMS[prefix];
  if (!form) return `"${prefix}" is not the prefix of an EU VAT id (Greece is EL)`;
  if (!form.test(number)) return `is not well-formed for the prefix ${prefix}`;
  const check = CHECKS[prefix];
  if (check && !check(number)) return `has a wrong check digit for the prefix ${prefix}`;
  return { text, prefix, number, country: COUNTRY_OF_PREFIX[prefix] ?? prefix };
}

/** The EU member states, by ISO country code (the reverse charge applies between them). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set(
  Object.keys(FORMS)
    .filter((p) => p !== 'XI')
    .map((p) => COUNTRY_OF_PREFIX[p] ?? p),
);
