import { z } from "zod";
import type { MeetupSpotKind } from "../db/schema/trade";
import { DomainError, statusOf } from "../errors.shared";
import type { InputIssue } from "../validation";

/**
 * Meetup spots and meetups (docs/product/meetups.md; decisions 0600, 0610-0614): the words, the
 * bounds and the forms' schemas, read the same by the pages and the domain (server/trade/).
 */

/** Decision 0600's kinds, in the picker's order (the schema's list; the browser may not import it). */
export const SPOT_KINDS = [
  "police",
  "library",
  "union",
  "other",
] as const satisfies readonly MeetupSpotKind[];

/** Decision 0600: the kinds as the picker and the card name them. */
export const SPOT_KIND_LABELS: Readonly<Record<MeetupSpotKind, string>> = {
  police: "Campus police safe exchange zone",
  library: "Library",
  union: "Student union",
  other: "Other",
};

/** Decision 0610: the bounds of a spot (the database's check constraint) and of a campus's list. */
export const SPOT_LIMITS = { name: 100, address: 200, hours: 200, rules: 500, perCampus: 20 } as const;

/** Decision 0611: how far ahead a meetup may be proposed. */
export const MEETUP_MAX_DAYS_AHEAD = 30;
export const DAY_MS = 24 * 60 * 60 * 1000;
/** Decision 0612: the reminder goes this long before the meetup. */
export const MEETUP_REMINDER_MS = 60 * 60 * 1000;
/** Decision 0613: an accepted meetup stays at the top of the conversation until this long after its time. */
export const ACCEPTED_SHOWN_AFTER_MS = 2 * 60 * 60 * 1000;

export const MEETUP_MESSAGES = {
  proposeButton: "Propose meetup",
  proposeTitle: "Propose meetup",
  suggestTitle: "Suggest another",
  send: "Send proposal",
  accept: "Accept",
  suggestAnother: "Suggest another",
  openInMaps: "Open in Maps",
  noSpots: "Your campus has no meetup spots yet. The site's operators add them.",
  spotRequired: "Choose one of your campus's meetup spots.",
  timeRequired: "Choose a date and time.",
  timePast: "Choose a time in the future.",
  timeTooFar: `Choose a time within the next ${MEETUP_MAX_DAYS_AHEAD} days.`,
  notFound: "This meetup doesn't exist.",
  onlyOther: "Only the other person can accept this meetup.",
  changed: "This meetup changed. Look at it again.",
  passed: "This meetup's time has passed. Suggest another.",
  proposed: "Meetup proposed.",
  accepted: "Meetup accepted.",
  somethingWentWrong: "Something went wrong. Try again.",
  // The spots' console section (decision 0610).
  nameRequired: "Enter the spot's name.",
  nameTooLong: `Keep the name to ${SPOT_LIMITS.name} characters.`,
  kindRequired: "Choose what kind of spot it is.",
  addressRequired: "Enter the address.",
  addressTooLong: `Keep the address to ${SPOT_LIMITS.address} characters.`,
  hoursTooLong: `Keep the hours to ${SPOT_LIMITS.hours} characters.`,
  rulesTooLong: `Keep the rules to ${SPOT_LIMITS.rules} characters.`,
  tooManySpots: `A campus has at most ${SPOT_LIMITS.perCampus} meetup spots. Remove one first.`,
  spotAdded: "Meetup spot added.",
  spotSaved: "Meetup spot saved.",
  spotRemoved: "Meetup spot removed.",
  spotMoved: "Meetup spot moved.",
} as const;

/** The states a card shows (decision 0613); 'past' is read from the time and the clock, never stored. */
export type MeetupCardState = "proposed" | "accepted" | "replaced" | "cancelled" | "past";
export const MEETUP_STATE_LABELS: Readonly<Record<MeetupCardState, string>> = {
  proposed: "Proposed",
  accepted: "Accepted",
  replaced: "Another time was suggested",
  cancelled: "Cancelled",
  past: "Time passed",
};

export type MeetupErrorCode = "invalid-input" | "not-found" | "forbidden" | "changed" | "passed";
const MEETUP_STATUSES: Readonly<Record<string, number>> = { changed: 409, passed: 409 };

export class MeetupError extends DomainError<MeetupErrorCode> {
  constructor(code: MeetupErrorCode, message: string, field?: string) {
    super(code, message, { status: statusOf(code, MEETUP_STATUSES), field });
    this.name = "MeetupError";
  }
}

export function invalidMeetupInput(issue: InputIssue): MeetupError {
  return new MeetupError("invalid-input", issue.message, issue.field);
}

const M = MEETUP_MESSAGES;
const uuid = (message: string) => z.string({ error: message }).uuid({ error: message });

function text(max: number, required: string | null, tooLong: string) {
  const base = z.string({ error: required ?? tooLong }).trim();
  return required
    ? base.min(1, { error: required, abort: true }).max(max, { error: tooLong })
    : base.max(max, { error: tooLong });
}

/** Decision 0610: a spot as the console's form sends it. */
export const meetupSpotSchema = z.object({
  campusId: z.string().min(1).max(40),
  name: text(SPOT_LIMITS.name, M.nameRequired, M.nameTooLong),
  kind: z.enum(SPOT_KINDS, { error: M.kindRequired }),
  address: text(SPOT_LIMITS.address, M.addressRequired, M.addressTooLong),
  hours: text(SPOT_LIMITS.hours, null, M.hoursTooLong).default(""),
  rules: text(SPOT_LIMITS.rules, null, M.rulesTooLong).default(""),
});
export type MeetupSpotInput = z.input<typeof meetupSpotSchema>;

export const editMeetupSpotSchema = meetupSpotSchema.extend({ spotId: uuid(M.somethingWentWrong) });
export type EditMeetupSpotInput = z.input<typeof editMeetupSpotSchema>;

export const meetupSpotRefSchema = z.object({
  campusId: z.string().min(1).max(40),
  spotId: uuid(M.somethingWentWrong),
});
export type MeetupSpotRefInput = z.input<typeof meetupSpotRefSchema>;

export const moveMeetupSpotSchema = meetupSpotRefSchema.extend({
  direction: z.enum(["up", "down"], { error: M.somethingWentWrong }),
});
export type MoveMeetupSpotInput = z.input<typeof moveMeetupSpotSchema>;

/** 'YYYY-MM-DDTHH:mm' (seconds allowed), what `<input type="datetime-local">` sends. */
const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/**
 * Decision 0611: a proposal: one of the campus's spots and a wall-clock time in the campus's zone
 * (decision 0614); `replacesId` names the proposal 'Suggest another' answers.
 */
export const proposeMeetupSchema = z.object({
  spotId: uuid(M.spotRequired),
  meetsAt: z
    .string({ error: M.timeRequired })
    .trim()
    .min(1, { error: M.timeRequired, abort: true })
    .max(30, { error: M.timeRequired, abort: true })
    .regex(LOCAL_TIME, { error: M.timeRequired }),
  replacesId: z
    .union([z.literal(""), uuid(M.somethingWentWrong)])
    .optional()
    .transform((value) => value || null),
});
export type ProposeMeetupInput = z.input<typeof proposeMeetupSchema>;

export const meetupRefSchema = z.object({ meetupId: uuid(M.notFound) });
export type MeetupRefInput = z.input<typeof meetupRefSchema>;

/**
 * Decision 0614: a campus's time zone from its state (campuses.json has no zone of its own); a
 * state split between zones takes the zone most of it, and its universities, keep.
 */
const STATE_TIME_ZONES: Readonly<Record<string, string>> = {
  AL: "America/Chicago",
  AK: "America/Anchorage",
  AZ: "America/Phoenix",
  AR: "America/Chicago",
  CA: "America/Los_Angeles",
  CO: "America/Denver",
  CT: "America/New_York",
  DE: "America/New_York",
  DC: "America/New_York",
  FL: "America/New_York",
  GA: "America/New_York",
  HI: "Pacific/Honolulu",
  ID: "America/Boise",
  IL: "America/Chicago",
  IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago",
  KS: "America/Chicago",
  KY: "America/New_York",
  LA: "America/Chicago",
  ME: "America/New_York",
  MD: "America/New_York",
  MA: "America/New_York",
  MI: "America/Detroit",
  MN: "America/Chicago",
  MS: "America/Chicago",
  MO: "America/Chicago",
  MT: "America/Denver",
  NE: "America/Chicago",
  NV: "America/Los_Angeles",
  NH: "America/New_York",
  NJ: "America/New_York",
  NM: "America/Denver",
  NY: "America/New_York",
  NC: "America/New_York",
  ND: "America/Chicago",
  OH: "America/New_York",
  OK: "America/Chicago",
  OR: "America/Los_Angeles",
  PA: "America/New_York",
  RI: "America/New_York",
  SC: "America/New_York",
  SD: "America/Chicago",
  TN: "America/Chicago",
  TX: "America/Chicago",
  UT: "America/Denver",
  VT: "America/New_York",
  VA: "America/New_York",
  WA: "America/Los_Angeles",
  WV: "America/New_York",
  WI: "America/Chicago",
  WY: "America/Denver",
  PR: "America/Puerto_Rico",
};

/** Decision 0614: without a known state, times are shown and read in UTC, and say so. */
export function campusTimeZone(state: string | null | undefined): string {
  return (state && STATE_TIME_ZONES[state.toUpperCase()]) || "UTC";
}

function wallParts(at: Date, timeZone: string): number[] {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return [get("year"), get("month"), get("day"), get("hour"), get("minute"), get("second")];
}

/** How far `timeZone` is ahead of UTC at `at`, in milliseconds. */
function offsetMs(at: Date, timeZone: string): number {
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = wallParts(at, timeZone);
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(at.getTime() / 1000) * 1000;
}

/** The moment a wall-clock time ('2026-12-05T15:00') is in `timeZone`; null for no such time. */
export function wallTimeToInstant(local: string, timeZone: string): Date | null {
  const match = LOCAL_TIME.exec(local);
  if (!match) return null;
  const [y, mo, d, h, mi] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  if (new Date(guess).getUTCDate() !== d) return null;
  const first = guess - offsetMs(new Date(guess), timeZone);
  const at = new Date(guess - offsetMs(new Date(first), timeZone));
  // A time the clocks skip (spring forward) does not come back as itself: no such time.
  return instantToWallTime(at, timeZone) === local.slice(0, 16) ? at : null;
}

/** A moment as `<input type="datetime-local">` shows it in `timeZone`, to the minute. */
export function instantToWallTime(at: Date, timeZone: string): string {
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0] = wallParts(at, timeZone);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}`;
}

/** Decision 0614: 'Sat, Dec 5, 3:00 PM CST', in the campus's zone, with the zone's name. */
export function formatMeetupTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(at);
}

/** Decision 0614: the zone as the proposal dialog names it ('Central Time'). */
export function timeZoneName(timeZone: string, at: Date): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longGeneric" }).formatToParts(at);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
}

/** Decision 0612: a plain link to a maps search of the address (no tiles, no script of anyone's). */
export function mapsUrl(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}
