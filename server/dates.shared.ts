/** The months by their English names, January first: the birth-date picker, dates written out. */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/**
 * A moment as the product writes it out, 'December 1, 2026 at 3:00 PM UTC' (a suspension's end,
 * decision 0547). Written out here rather than by Intl, whose spacing before 'PM' differs between
 * ICU versions (the server's and the browser's would not match while hydrating); in UTC, because
 * the account stores no time zone and a time without one would be wrong for someone.
 */
export function formatUtcDateTime(at: Date): string {
  const date = new Date(at);
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, "0");
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const half = hours < 12 ? "AM" : "PM";
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()} at ${hour12}:${minutes} ${half} UTC`;
}
