/**
 * The verified-student badge (docs/product/student-badge.md, decision 0680): what it reads, when
 * it lapses and when it turns into 'Alum', from the account's facts and the clock. One function
 * for every place the badge shows; the server computes it with ctx.clock and pages render its
 * result, so a reader never sees a badge the server would not show.
 */

/** The badge lasts this long from the code that confirmed the school address (decision 0680). */
export const BADGE_VALID_YEARS = 1;
/** The reminder goes out this many days before the badge lapses (decision 0681). */
export const BADGE_REMINDER_DAYS = 30;
/** The years a student may choose: this year to this year + 7 (by the clock). */
export const GRAD_YEAR_SPAN = 7;
/** Where a student renews the badge or gives the year: the school verification page. */
export const BADGE_RENEWAL_PATH = "/settings/account/school_email";
/** The page the year banner's form posts to (and shows it alone without JavaScript). */
export const GRAD_YEAR_PATH = "/settings/account/graduation_year";

export const BADGE_MESSAGES = {
  gradYearInvalid: "Choose your graduation year",
  gradYearSet: "Your class year is already set. Renew your badge to change it.",
  notSchoolVerified: "Verify your school email first.",
  reminderNotice: "Your verified student badge ends soon. Confirm your school email to keep it.",
  gradYearSaved: "Class year saved",
} as const;

export interface BadgeFacts {
  schoolVerified: boolean;
  /** When the school address was last confirmed with a code. */
  schoolVerifiedAt: Date | null;
  gradYear: number | null;
}

export type StudentBadge =
  | { kind: "student"; classOf: number | null; label: string }
  | { kind: "alum"; classOf: number; label: "Alum" };

/** The moment a badge confirmed at `verifiedAt` lapses: the same date and time a year later (UTC). */
export function badgeLapsesAt(verifiedAt: Date): Date {
  const lapses = new Date(verifiedAt.getTime());
  lapses.setUTCFullYear(lapses.getUTCFullYear() + BADGE_VALID_YEARS);
  return lapses;
}

/**
 * The latest confirmation time whose badge lapses at or before `at` (the job's index range):
 * the inverse of badgeLapsesAt, a year earlier.
 */
export function confirmedBeforeLapseAt(at: Date): Date {
  const confirmed = new Date(at.getTime());
  confirmed.setUTCFullYear(confirmed.getUTCFullYear() - BADGE_VALID_YEARS);
  return confirmed;
}

/**
 * From when the class of `gradYear` reads 'Alum': after September 30 of that year wherever the
 * campus is (decision 0680) — October 1, 00:00 in the last time zone on Earth (UTC−12), so no
 * student is called an alum while it is still September 30 where they are.
 */
export function alumFrom(gradYear: number): Date {
  return new Date(Date.UTC(gradYear, 9, 1, 12));
}

/** The years the school step offers: this year to this year + 7, by the clock (UTC). */
export function gradYearChoices(now: Date): number[] {
  const first = now.getUTCFullYear();
  return Array.from({ length: GRAD_YEAR_SPAN + 1 }, (_, index) => first + index);
}

/**
 * What the badge reads now (decision 0680): none without a school check or after it lapsed;
 * 'Alum' from after September 30 of the graduation year when the badge was valid then (an
 * alum's badge then stays: there is no school address left to confirm); otherwise 'Verified
 * student · Class of 2027', or 'Verified student' while the year is unknown.
 */
export function studentBadge(facts: BadgeFacts, now: Date): StudentBadge | null {
  if (!facts.schoolVerified || facts.schoolVerifiedAt === null) return null;
  const lapses = badgeLapsesAt(facts.schoolVerifiedAt).getTime();
  if (facts.gradYear !== null) {
    const graduated = alumFrom(facts.gradYear).getTime();
    if (now.getTime() >= graduated) {
      return lapses > graduated ? { kind: "alum", classOf: facts.gradYear, label: "Alum" } : null;
    }
  }
  if (now.getTime() >= lapses) return null;
  return facts.gradYear === null
    ? { kind: "student", classOf: null, label: "Verified student" }
    : { kind: "student", classOf: facts.gradYear, label: `Verified student · Class of ${facts.gradYear}` };
}

/** The badge beside a handle, where the line has room for few words: 'Class of 2027', 'Alum', or null. */
export function badgeShortText(badge: StudentBadge | null): string | null {
  if (!badge) return null;
  if (badge.kind === "alum") return "Alum";
  return badge.classOf === null ? null : `Class of ${badge.classOf}`;
}

/**
 * Whether the badge needs renewing by a new code (the reminder and the renewal form): a
 * student badge that lapses, i.e. one that will not have turned into 'Alum' first.
 */
export function badgeWillLapse(facts: BadgeFacts): boolean {
  if (!facts.schoolVerified || facts.schoolVerifiedAt === null) return false;
  if (facts.gradYear === null) return true;
  return badgeLapsesAt(facts.schoolVerifiedAt).getTime() <= alumFrom(facts.gradYear).getTime();
}
