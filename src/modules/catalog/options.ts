import type { ProductOption } from './catalog.tables.ts';

// Options and variants are plain data: these checks run before any write (a 400 naming the field).

/** Why a variant's options do not fit the product's declared options, or null when they do. */
export function optionsProblem(
  declared: readonly ProductOption[],
  options: Record<string, string>,
): string | null {
  const names = Object.keys(options);
  for (const name of names) {
    if (!declared.some((o) => o.name === name)) return `names no option "${name}" of the product`;
  }
  for (const option of declared) {
    const value = options[option.name];
    if (value === undefined) return `needs a value for "${option.name}"`;
    if (!option.values.includes(value)) return `"${value}" is not a value of "${option.name}"`;
  }
  return null;
}

/** Option names must be distinct (a variant's options are an object keyed by name). */
export function declaredOptionsProblem(declared: readonly ProductOption[]): string | null {
  const names = new Set<string>();
  for (const o of declared) {
    if (names.has(o.name)) return `names "${o.name}" twice`;
    names.add(o.name);
  }
  return null;
}

/** The same option combination twice in one body: the second index, or -1. */
export function duplicateCombination(all: readonly Record<string, string>[]): number {
  const seen = new Set<string>();
  for (const [i, options] of all.entries()) {
    const key = JSON.stringify(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}

// A write body reaches the hooks as plain values its schema validated; these read them as their types.

/** A body's option choice (`{"Size": "M"}`); anything else reads as none. */
export function chosenOptions(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function isDeclaredOption(value: unknown): value is ProductOption {
  if (typeof value !== 'object' || value === null) return false;
  if (!('name' in value) || !('values' in value)) return false;
  return typeof value.name === 'string' && Array.isArray(value.values);
}

/** A body's declared options (`[{"name": "Size", "values": ["S", "M"]}]`). */
export function declaredOptions(value: unknown): ProductOption[] {
  return Array.isArray(value) ? value.filter(isDeclaredOption) : [];
}

/**
 * Why a product's options in another locale do not fit its own, or null when they do: the same
 * options in the same order, each with as many values (a variant keeps the default names, and the
 * translation names them by position).
 */
export function translatedOptionsProblem(
  own: readonly ProductOption[],
  translated: readonly ProductOption[],
): string | null {
  if (translated.length !== own.length) return `need ${own.length} options, as the product has`;
  for (const [i, option] of own.entries()) {
    const count = translated[i]?.values.length;
    if (count !== option.values.length) return `need ${option.values.length} values for "${option.name}" (option ${i})`;
  }
  return declaredOptionsProblem(translated);
}
