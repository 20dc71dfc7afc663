import { AppError } from '../../http/errors.ts';

// A report's period: calendar days in the shop's time zone, `from` and `to` both included. Pure.

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface Period {
  /** YYYY-MM-DD, first day counted. */
  from: string;
  /** YYYY-MM-DD, the day after the last day counted (the SQL bound is exclusive). */
  toExclusive: string;
  timeZone: string;
}

const DAY_MS = 86_400_000;
/** The longest period a report covers: ten years of days is still a small answer. */
export const MAX_DAYS = 3660;
export const DEFAULT_DAYS = 30;

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Today's date in the time zone (the calendar day a shop operator sees). */
export function todayIn(timeZone: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  return parts;
}

/**
 * The period asked for: `to` defaults to today in the shop's zone, `from` to 30 days before `to`.
 * A `from` after `to`, a date that does not exist or a period longer than MAX_DAYS is a 400.
 */
export function periodOf(query: { from?: string; to?: string }, timeZone: string, now = new Date()): Period {
  const to = query.to ?? todayIn(timeZone, now);
  const toDate = parseDay(to, 'to');
  const from = query.from ?? dayOf(new Date(toDate.getTime() - (DEFAULT_DAYS - 1) * DAY_MS));
  const fromDate = parseDay(from, 'from');
  const days = (toDate.getTime() - fromDate.getTime()) / DAY_MS + 1;
  if (days < 1) throw invalid('from', 'must not be after to');
  if (days > MAX_DAYS) throw invalid('from', `a report covers at most ${MAX_DAYS} days`);
  return { from, toExclusive: dayOf(new Date(toDate.getTime() + DAY_MS)), timeZone };
}

function parseDay(value: string, field: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || dayOf(date) !== value) throw invalid(field, 'is not a calendar date');
  return date;
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field} ${message}`, [{ field, message }]);
}
