import { and, eq, ne } from "drizzle-orm";
import { type Campus, getCampus, isSchoolEmailDomain } from "../campuses/campuses";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { user } from "../db/schema";
import { insertNewUserPost } from "../posts/new-user-post";
import { recountTrustLevel } from "../trust/recount";
import { parseInput } from "../validation";
import { issueCode, verifyCode } from "./codes";
import { AccountError, invalidAccountInput, SETTINGS_ERRORS } from "./errors.shared";
import { gradYearSchema } from "./grad-year.shared";
import { pinSchema, type SchoolEmailInput, schoolEmailSchema } from "./schemas.shared";
import type { Viewer } from "./viewer";

/** The campus facts school verification needs. */
export type SchoolCampus = Pick<Campus, "id" | "name" | "school" | "domains" | "generic">;

/**
 * Which campus a school e-mail is for (spec 1 §5 'School e-mail'): the campus of the
 * host, or, on the generic instance, the one named by the `campus` query. Null when
 * there is none or it has no domain list: the page then says 'Something went wrong'.
 */
export function resolveSchoolCampus<C extends SchoolCampus>(
  hostCampus: C,
  campusQuery: string | null,
  lookup: (id: string) => C | null,
): C | null {
  const campus = hostCampus.generic ? (campusQuery ? lookup(campusQuery) : null) : hostCampus;
  if (!campus || campus.generic || campus.domains.length === 0) return null;
  return campus;
}

/** The schema of the school e-mail form for one campus and one viewer (browser and server). */
export function schoolEmailSchemaFor(
  campus: Pick<SchoolCampus, "domains">,
  currentSchoolEmail: string | null,
) {
  return schoolEmailSchema({
    currentSchoolEmail,
    isCampusDomain: (email) => isSchoolEmailDomain(email, campus.domains),
  });
}

async function schoolEmailOwner(db: Queryable, email: string, exceptUserId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.schoolEmail, email), ne(user.id, exceptUserId)))
    .limit(1);
  return row?.id ?? null;
}

function schoolEmailTaken(): AccountError {
  return new AccountError("school-email-taken", SETTINGS_ERRORS.schoolEmailTaken, "email");
}

function requireVerifiedEmail(viewer: Viewer): void {
  // spec 1 §4: the school comes after the e-mail (an unverified user is forced to /verify).
  if (!viewer.verified) throw new AccountError("email-unverified", SETTINGS_ERRORS.emailUnverified);
}

/**
 * Decision 0680: the year the school step asks, when given: one of this year to this year + 7 by
 * the clock, else 'Choose your graduation year' (400) and nothing is done. Absent: the year stays.
 */
function readGradYear(ctx: AppContext, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  return parseInput(gradYearSchema(ctx.clock.now()), value, (issue) =>
    invalidAccountInput({ ...issue, field: "gradYear" }),
  );
}

async function currentSchoolEmail(db: Queryable, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ schoolEmail: user.schoolEmail })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) throw new Error(`no user ${userId}`);
  return row.schoolEmail;
}

/**
 * Send PIN (spec 1 §2 school_email, §5): checks the address against the campus's
 * domains and against every other account (one school e-mail per account,
 * decision 0041), then mails a 4-digit code with the caps of every code
 * (5 tries, 3 mails an hour: codes.ts).
 */
export async function sendSchoolEmailCode(
  ctx: AppContext,
  viewer: Viewer,
  input: SchoolEmailInput & { gradYear?: unknown },
  campus: SchoolCampus | null,
): Promise<{ email: string; campusId: string; expiresAt: Date; gradYear: number | undefined }> {
  if (!campus || campus.generic || campus.domains.length === 0) {
    throw new AccountError("no-school-domains", SETTINGS_ERRORS.somethingWentWrong);
  }
  requireVerifiedEmail(viewer);
  const gradYear = readGradYear(ctx, input.gradYear);
  const current = await currentSchoolEmail(ctx.db, viewer.id);
  const { email } = parseInput(
    schoolEmailSchemaFor(campus, current),
    { email: input.email },
    invalidAccountInput,
  );
  if (await schoolEmailOwner(ctx.db, email, viewer.id)) throw schoolEmailTaken();
  const { expiresAt } = await issueCode(ctx, {
    userId: viewer.id,
    purpose: "school_email",
    target: email,
    campus: { id: campus.id, name: campus.name, generic: campus.generic },
  });
  return { email, campusId: campus.id, expiresAt, gradYear };
}

export interface SchoolVerified {
  campus: { id: string; name: string };
  /** Whether this verification joined a campus (and so announced it with a 'new user' post). */
  joined: boolean;
  /** spec 1 §4: the generic instance goes on to /search_schools, a campus to /home. */
  next: "/search_schools" | "/home";
}

/**
 * Enter PIN (spec 1 §4 'School verification'). The right code, in one transaction:
 * school_verified true, school_email, campus_id of the campus the code was sent for,
 * redirect_to that campus (not on the generic instance), and, when this joins a campus
 * the user was not a verified member of, a post of type 'new user' (decision 0041).
 * The code is deleted with it; a wrong code counts a try.
 *
 * Decisions 0680 and 0682: it also starts the badge's 12 months (`school_verified_at` = now, the
 * period's reminder cleared) and stores the year the step asked; a bad year is refused before
 * the code is looked at, so it stays usable. Renewal is this same step to the same address.
 */
export async function verifySchoolEmailCode(
  ctx: AppContext,
  viewer: Viewer,
  input: { code: string; gradYear?: unknown },
  options: { genericInstance: boolean },
): Promise<SchoolVerified> {
  requireVerifiedEmail(viewer);
  const gradYear = readGradYear(ctx, input.gradYear);
  const { code } = parseInput(pinSchema, { code: input.code }, invalidAccountInput);
  const outcome: { verified?: SchoolVerified } = {};
  try {
    await verifyCode(ctx, { userId: viewer.id, purpose: "school_email", code }, async (tx, proven) => {
      const [me] = await tx
        .select({ schoolVerified: user.schoolVerified, campusId: user.campusId })
        .from(user)
        .where(eq(user.id, viewer.id))
        .for("update");
      if (!me) throw new Error(`verifySchoolEmailCode: no user ${viewer.id}`);
      if (await schoolEmailOwner(tx, proven.target, viewer.id)) throw schoolEmailTaken();
      // The campus's domain list may have changed since the code was mailed.
      const campus = await getCampus(tx, proven.campusId);
      if (!campus || campus.generic || !isSchoolEmailDomain(proven.target, campus.domains)) {
        throw new AccountError("no-school-domains", SETTINGS_ERRORS.somethingWentWrong);
      }
      const now = ctx.clock.now();
      const joined = !me.schoolVerified || me.campusId !== campus.id;
      await tx
        .update(user)
        .set({
          schoolVerified: true,
          schoolEmail: proven.target,
          campusId: campus.id,
          ...(options.genericInstance ? {} : { redirectTo: campus.id }),
          schoolVerifiedAt: now,
          badgeReminderSentAt: null,
          ...(gradYear === undefined ? {} : { gradYear }),
          updatedAt: now,
        })
        .where(eq(user.id, viewer.id));
      if (joined) await insertNewUserPost(tx, { authorId: viewer.id, campusId: campus.id, at: now });
      // Decision 0660: a verified school address is part of every trust level.
      await recountTrustLevel(tx, ctx, viewer.id);
      outcome.verified = {
        campus: { id: campus.id, name: campus.name },
        joined,
        next: options.genericInstance ? "/search_schools" : "/home",
      };
    });
  } catch (error) {
    // Two accounts proving the same address at once: the unique index decides.
    if (isUniqueViolation(error, "user_school_email_unique")) throw schoolEmailTaken();
    throw error;
  }
  if (!outcome.verified) throw new Error("verifySchoolEmailCode: verified without a result");
  return outcome.verified;
}
