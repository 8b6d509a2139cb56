// Decision 0456: a chat's messages carry their time and are grouped by day, as in every messenger.
// Pure, so the rules are tested without rendering (message-time.test.ts). Like a post's timestamp
// (app/components/posts/post-age.tsx), the server renders in UTC and says so, and the browser
// renders again in the reader's own zone once the page runs.

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

interface CalendarDay {
  year: number;
  /** 0-based, as Date's. */
  month: number;
  day: number;
}

/** The calendar day of an instant in UTC ('UTC') or in the browser's own zone (undefined). */
function calendarDay(date: Date, timeZone: "UTC" | undefined): CalendarDay {
  return timeZone === "UTC"
    ? { year: date.getUTCFullYear(), month: date.getUTCMonth(), day: date.getUTCDate() }
    : { year: date.getFullYear(), month: date.getMonth(), day: date.getDate() };
}

/** A key that two instants share when they fall on the same day in the zone. */
export function messageDayKey(date: Date, timeZone?: "UTC"): string {
  const { year, month, day } = calendarDay(date, timeZone);
  return `${year}-${month + 1}-${day}`;
}

/** The day before a calendar day (month and year lengths from the calendar, not 24 hours: DST-safe). */
function dayBefore({ year, month, day }: CalendarDay): CalendarDay {
  const previous = new Date(Date.UTC(year, month, day - 1));
  return { year: previous.getUTCFullYear(), month: previous.getUTCMonth(), day: previous.getUTCDate() };
}

function sameDay(a: CalendarDay, b: CalendarDay): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** A day separator: 'Today', 'Yesterday', 'Mon, Nov 23', or 'Nov 23, 2025' in another year. */
export function messageDayLabel(date: Date, now: Date, timeZone?: "UTC"): string {
  const day = calendarDay(date, timeZone);
  const today = calendarDay(now, timeZone);
  if (sameDay(day, today)) return "Today";
  if (sameDay(day, dayBefore(today))) return "Yesterday";
  const weekday = new Date(Date.UTC(day.year, day.month, day.day)).getUTCDay();
  return day.year === today.year
    ? `${WEEKDAYS[weekday]}, ${MONTHS[day.month]} ${day.day}`
    : `${MONTHS[day.month]} ${day.day}, ${day.year}`;
}

/** A message's time of day, '3:05 PM' ('3:05 PM UTC' as the server renders it). */
export function messageClock(date: Date, timeZone?: "UTC"): string {
  const utc = timeZone === "UTC";
  const hours = utc ? date.getUTCHours() : date.getHours();
  const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${String(minutes).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}${utc ? " UTC" : ""}`;
}
