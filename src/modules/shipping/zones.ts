// Which zone an address falls in (docs/shipping-and-tax.md): plain functions over plain data, so the
// quote, the transport list and the write checks share them and they are tested without HTTP.

/** An address as far as shipping cares: country (alpha-2), county code and postal code. */
export interface Destination {
  country: string;
  region: string | null;
  postalCode: string | null;
}

export interface ZoneRules {
  id: number;
  name: string;
  countries: readonly string[];
  regions: readonly string[];
  postalCodes: { include: readonly string[]; exclude: readonly string[] };
  priority: number;
}

const PREFIX = /^[A-Z0-9]{1,10}$/;
const RANGE = /^([A-Z0-9]{1,10})-([A-Z0-9]{1,10})$/;

/** Postal codes compared without spaces, upper case ("841 00" is "84100"). */
export function normalPostalCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}

/** Why a postal rule cannot be read, or null: a prefix ("84") or a range of equal lengths ("84000-84999"). */
export function postalRuleProblem(rule: string): string | null {
  const text = normalPostalCode(rule);
  if (PREFIX.test(text)) return null;
  const range = RANGE.exec(text);
  if (!range) return `"${rule}" is neither a prefix (84) nor a range (84000-84999)`;
  if (range[1].length !== range[2].length) return `"${rule}": both ends of a range have the same length`;
  if (range[1] > range[2]) return `"${rule}": the range's start is above its end`;
  return null;
}

/** A prefix matches codes starting with it; a range matches codes whose first characters fall in it. */
export function postalRuleMatches(rule: string, postalCode: string): boolean {
  const text = normalPostalCode(rule);
  const code = normalPostalCode(postalCode);
  const range = RANGE.exec(text);
  if (!range) return code.startsWith(text);
  const head = code.slice(0, range[1].length);
  return head.length === range[1].length && head >= range[1] && head <= range[2];
}

export function zoneMatches(zone: ZoneRules, to: Destination): boolean {
  if (!zone.countries.includes(to.country)) return false;
  if (zone.regions.length > 0 && (to.region === null || !zone.regions.includes(to.region.toUpperCase())))
    return false;
  const { include, exclude } = zone.postalCodes;
  const code = to.postalCode;
  if (include.length > 0 && (code === null || !include.some((r) => postalRuleMatches(r, code)))) return false;
  return code === null || !exclude.some((r) => postalRuleMatches(r, code));
}

/**
 * How narrowly a zone draws its addresses: postal codes it includes (2) are narrower than regions or
 * postal codes it leaves out (1), which are narrower than whole countries (0).
 */
export function specificity(zone: ZoneRules): number {
  if (zone.postalCodes.include.length > 0) return 2;
  return zone.regions.length > 0 || zone.postalCodes.exclude.length > 0 ? 1 : 0;
}

/** Orders candidates best first: more specific, then higher priority, then the older zone. */
function better(a: ZoneRules, b: ZoneRules): boolean {
  const sa = specificity(a);
  const sb = specificity(b);
  if (sa !== sb) return sa > sb;
  if (a.priority !== b.priority) return a.priority > b.priority;
  return a.id < b.id;
}

/** The item whose zone matches the destination most specifically, or undefined when none matches. */
export function mostSpecific<T extends { zone: ZoneRules }>(
  items: readonly T[],
  to: Destination,
): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (zoneMatches(item.zone, to) && (best === undefined || better(item.zone, best.zone))) best = item;
  }
  return best;
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const norm = (list: readonly string[]) => [...new Set(list.map(normalPostalCode))].sort().join(',');
  return norm(a) === norm(b);
};

/**
 * Two zones the quote could not tell apart: the same countries, regions and postal rules with the
 * same priority. A zone with postal rules inside a country-wide zone is narrower, not a tie.
 */
export function sameCoverage(a: Omit<ZoneRules, 'id' | 'name'>, b: Omit<ZoneRules, 'id' | 'name'>): boolean {
  return (
    a.priority === b.priority &&
    sameSet(a.countries, b.countries) &&
    sameSet(a.regions, b.regions) &&
    sameSet(a.postalCodes.include, b.postalCodes.include) &&
    sameSet(a.postalCodes.exclude, b.postalCodes.exclude)
  );
}
