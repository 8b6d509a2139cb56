// Pure formatting for post cards and the post page (tested in post-format.test.ts).
import { type RichTextView, truncateRichTextView } from "~/server/posts/rich-text-view.shared";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

function monthDay(date: Date, timeZone: string | undefined): { month: string; day: number; year: number } {
  if (timeZone === "UTC") {
    return { month: MONTHS[date.getUTCMonth()] ?? "", day: date.getUTCDate(), year: date.getUTCFullYear() };
  }
  return { month: MONTHS[date.getMonth()] ?? "", day: date.getDate(), year: date.getFullYear() };
}

/**
 * The age of a post as cards show it (decision 0095): 'now', '5m', '2h', '3d', '2w',
 * then the date ('Mar 4', with the year when it is not this year's).
 * A date a little in the future (clock skew) reads 'now'.
 */
export function formatAge(date: Date, now: Date, timeZone?: string): string {
  const elapsed = now.getTime() - date.getTime();
  if (elapsed < MINUTE) return "now";
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h`;
  if (elapsed < WEEK) return `${Math.floor(elapsed / DAY)}d`;
  if (elapsed < 5 * WEEK) return `${Math.floor(elapsed / WEEK)}w`;
  const then = monthDay(date, timeZone);
  const current = monthDay(now, timeZone);
  return then.year === current.year ? `${then.month} ${then.day}` : `${then.month} ${then.day}, ${then.year}`;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"} ago`;
}

/** spec 2 §2 'Media' tile overlay: the age as '… ago' ('just now', '5 minutes ago', '3 days ago'). */
export function formatAgeAgo(date: Date, now: Date): string {
  const elapsed = now.getTime() - date.getTime();
  if (elapsed < MINUTE) return "just now";
  if (elapsed < HOUR) return plural(Math.floor(elapsed / MINUTE), "minute");
  if (elapsed < DAY) return plural(Math.floor(elapsed / HOUR), "hour");
  if (elapsed < WEEK) return plural(Math.floor(elapsed / DAY), "day");
  if (elapsed < 5 * WEEK) return plural(Math.floor(elapsed / WEEK), "week");
  if (elapsed < 365 * DAY) return plural(Math.max(1, Math.floor(elapsed / (30 * DAY))), "month");
  return plural(Math.floor(elapsed / (365 * DAY)), "year");
}

/**
 * spec 2 §2 'Post detail' timestamp: '3:45 PM · Mar 4, 2026'. The server renders it in
 * UTC (it does not know the reader's zone) and the browser re-renders it in local time.
 */
export function formatTimestamp(date: Date, timeZone?: string): string {
  const utc = timeZone === "UTC";
  const hours = utc ? date.getUTCHours() : date.getHours();
  const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
  const { month, day, year } = monthDay(date, timeZone);
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const clock = `${hour12}:${String(minutes).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}`;
  return `${clock}${utc ? " UTC" : ""} · ${month} ${day}, ${year}`;
}

/** A person as posts name them: first name and last initial ('Jamie R.', spec 1 §3). */
export function displayName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}

export const SEE_MORE = "See more";
export const SEE_LESS = "See less";

/**
 * spec 2 §2 'Long post text is cut at 200 characters with "See more" / "See less"':
 * what to show, and the toggle's label (null when the text fits and there is nothing to toggle).
 */
export function textToShow(
  text: RichTextView,
  expanded: boolean,
): { view: RichTextView; toggle: typeof SEE_MORE | typeof SEE_LESS | null } {
  // Cut here rather than sent beside the text: every list would carry most long texts twice.
  const preview = truncateRichTextView(text);
  if (!preview) return { view: text, toggle: null };
  return expanded ? { view: text, toggle: SEE_LESS } : { view: preview, toggle: SEE_MORE };
}

/**
 * Plain text for one line of a link preview (OpenGraph description, page title):
 * whitespace collapsed, cut at a word boundary near `max` characters with '…'.
 */
export function cutPlainText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const characters = Array.from(flat);
  if (characters.length <= max) return flat;
  const cut = characters.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
