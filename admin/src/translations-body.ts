// The `translations` of a write (docs/translations.md): only the locales the form changed, so a
// locale kept from before it was disabled is never sent back (the API refuses it); an emptied text
// as null (the API removes it); a locale's options left wholly empty as null.

type Texts = Record<string, unknown>;

const isRecord = (value: unknown): value is Texts =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isEmptyOption(option: unknown): boolean {
  if (!isRecord(option)) return true;
  const values = Array.isArray(option.values) ? option.values : [];
  return !option.name && values.length === 0;
}

/** A text as the API takes it: '' (an emptied input) and an untouched input remove it. */
function asWritten(value: unknown): unknown {
  if (value === undefined || value === '') return null;
  if (Array.isArray(value) && value.every(isEmptyOption)) return null;
  return value;
}

/** The translations a write carries, or undefined when no locale changed. */
export function translationsChange(next: unknown, previous: unknown): Record<string, Texts> | undefined {
  if (!isRecord(next)) return undefined;
  const before = isRecord(previous) ? previous : {};
  const changed: Record<string, Texts> = {};
  for (const [code, texts] of Object.entries(next)) {
    if (!isRecord(texts) || JSON.stringify(texts) === JSON.stringify(before[code])) continue;
    changed[code] = Object.fromEntries(Object.entries(texts).map(([field, value]) => [field, asWritten(value)]));
  }
  return Object.keys(changed).length > 0 ? changed : undefined;
}
