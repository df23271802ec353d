import type { ScheduleSpec } from '../../api/gen/model/scheduleSpec';

// A monitor's schedule in words (issue #29 item 7) and the five-field cron expression the
// API takes: daily, weekly on a weekday, or monthly on a day, at a time, in a time zone.

/** How often, in the words the form offers. */
export type Frequency = 'daily' | 'weekly' | 'monthly';

/** A schedule as the form holds it. */
export interface ScheduleChoice {
  frequency: Frequency;
  /** 0 (Sunday) to 6 (Saturday), cron's numbering; weekly only. */
  weekday: number;
  /** 1 to 28, so every month has it; monthly only. */
  dayOfMonth: number;
  /** 'HH:MM', 24-hour, as an `<input type="time">` gives it. */
  time: string;
  /** An IANA zone, e.g. `Europe/Paris`. */
  timeZone: string;
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The last day the monthly choice offers: every month has a 28th. */
export const LAST_DAY_OF_MONTH = 28;

/** The browser's time zone, or UTC when it cannot say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function defaultSchedule(timeZone = browserTimeZone()): ScheduleChoice {
  return { frequency: 'weekly', weekday: 1, dayOfMonth: 1, time: '09:00', timeZone };
}

function parseTime(time: string): { hour: number; minute: number } | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** The API's schedule for a choice, or null when its time is not a valid `HH:MM`. */
export function scheduleToSpec(choice: ScheduleChoice): ScheduleSpec | null {
  const time = parseTime(choice.time);
  if (!time) return null;
  const at = `${time.minute} ${time.hour}`;
  const cron =
    choice.frequency === 'daily'
      ? `${at} * * *`
      : choice.frequency === 'weekly'
        ? `${at} * * ${choice.weekday}`
        : `${at} ${choice.dayOfMonth} * *`;
  return { cron, timeZone: choice.timeZone };
}

const pad = (n: number) => String(n).padStart(2, '0');
const FIELD = /^\d{1,2}$/;

/**
 * The choice a cron expression came from, or null when it is not one the form makes (a
 * schedule made through the API can be anything cron allows).
 */
export function specToSchedule(spec: ScheduleSpec): ScheduleChoice | null {
  const fields = spec.cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, day, month, weekday] = fields;
  if (!FIELD.test(minute) || !FIELD.test(hour) || month !== '*') return null;
  const time = `${pad(Number(hour))}:${pad(Number(minute))}`;
  if (!parseTime(time)) return null;
  const base = { time, timeZone: spec.timeZone, weekday: 1, dayOfMonth: 1 };
  if (day === '*' && weekday === '*') return { ...base, frequency: 'daily' };
  if (day === '*' && FIELD.test(weekday)) {
    // Cron reads 7 as Sunday too.
    const w = Number(weekday) % 7;
    return Number(weekday) <= 7 ? { ...base, frequency: 'weekly', weekday: w } : null;
  }
  if (weekday === '*' && FIELD.test(day)) {
    const d = Number(day);
    return d >= 1 && d <= 31 ? { ...base, frequency: 'monthly', dayOfMonth: d } : null;
  }
  return null;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** A choice in words: "Every Monday at 09:00". */
export function choiceInWords(choice: ScheduleChoice): string {
  if (choice.frequency === 'daily') return `Every day at ${choice.time}`;
  if (choice.frequency === 'weekly') return `Every ${WEEKDAYS[choice.weekday]} at ${choice.time}`;
  return `On the ${ordinal(choice.dayOfMonth)} of every month at ${choice.time}`;
}

/**
 * A saved schedule in words with its zone ("Every Monday at 09:00 (Europe/Paris)"); an
 * expression the form does not make is shown as it is; none: "Only when run by hand".
 */
export function scheduleInWords(spec: ScheduleSpec | null | undefined): string {
  if (!spec) return 'Only when run by hand';
  const choice = specToSchedule(spec);
  const words = choice ? choiceInWords(choice) : `Cron ${spec.cron.trim()}`;
  return `${words} (${spec.timeZone})`;
}
