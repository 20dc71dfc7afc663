// A <DateTimeInput> gives the browser's local "YYYY-MM-DDTHH:mm", which carries no offset: the
// API's date-time fields want an instant, so the local time is written as one (ISO 8601, UTC).

/** The parse of a DateTimeInput: an instant, or null when the field is cleared. */
export function instantParse(value: string | null | undefined): string | null {
  if (!value) return null;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? value : instant.toISOString();
}
