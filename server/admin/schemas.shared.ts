import { z } from "zod";
import { DECISION_LIMITS, REASON_CODES } from "../moderation/rules.shared";
import { ADMIN_MESSAGES as M } from "./errors.shared";

/**
 * The operator console's forms (decisions 0560-0565), read the same on the page and by the domain
 * functions. Every field is bounded: a reason to the moderation log's public reason, a search to
 * the longest e-mail address.
 */

/** The longest thing a search may be: an e-mail address (RFC 5321's 254). */
export const SEARCH_MAX = 254;

export const studentSearchSchema = z.object({
  q: z
    .string({ error: M.searchRequired })
    .trim()
    .min(1, { error: M.searchRequired, abort: true })
    .max(SEARCH_MAX, { error: M.searchTooLong }),
});

/** An account id as better-auth writes it (letters and digits), or a test's; bounded before any query. */
export const studentIdSchema = z
  .string({ error: M.notFound })
  .min(1, { error: M.notFound })
  .max(64, { error: M.notFound })
  .regex(/^[A-Za-z0-9_-]+$/, { error: M.notFound });

const reason = z
  .string({ error: M.reasonRequired })
  .trim()
  .min(1, { error: M.reasonRequired, abort: true })
  .max(DECISION_LIMITS.publicReasonMax, { error: M.reasonTooLong });

/** Decision 0563: the admin's password, when their sign-in is older than 10 minutes; never echoed. */
const password = z
  .string()
  .max(200)
  .optional()
  .transform((value) => (value ? value : null));

/** Verify e-mail, resend a code: a reason for the log (staff see it; the student is not told). */
export const studentActionSchema = z.object({ studentId: studentIdSchema, reason });
export type StudentActionInput = z.input<typeof studentActionSchema>;

/** Sign out everywhere: destructive, so the password may be asked (decision 0563). */
export const signOutStudentSchema = studentActionSchema.extend({ password });
export type SignOutStudentInput = z.input<typeof signOutStudentSchema>;

/** Lift: the reason the student reads in their notice. */
export const liftStudentSchema = z.object({
  studentId: studentIdSchema,
  reasonCode: z.enum(REASON_CODES, { error: M.reasonCodeRequired }),
  reason,
});
export type LiftStudentInput = z.input<typeof liftStudentSchema>;

/** Ban: a reason category and the reason the student reads, as a moderator's Ban (decision 0543). */
export const banStudentSchema = liftStudentSchema.extend({ password });
export type BanStudentInput = z.input<typeof banStudentSchema>;

/** Suspend: with a length, as a moderator's Suspend (decision 0543: '1', '3', '7', '30' or 'lifted'). */
export const suspendStudentSchema = banStudentSchema.extend({
  days: z.enum(["1", "3", "7", "30", "lifted"], { error: M.daysRequired }),
});
export type SuspendStudentInput = z.input<typeof suspendStudentSchema>;

/**
 * Decision 0562: a school e-mail domain, as the sign-up compares it (lower case, no trailing dot):
 * labels of letters, digits and hyphens, at least two of them, at most 253 characters.
 */
export const DOMAIN_PATTERN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const campusDomainSchema = z.object({
  campusId: z.string().min(1).max(40),
  domain: z
    .string({ error: M.domainRequired })
    .trim()
    .min(1, { error: M.domainRequired, abort: true })
    .max(253, { error: M.domainInvalid, abort: true })
    .transform((value) => value.toLowerCase().replace(/\.$/, ""))
    .pipe(z.string().regex(DOMAIN_PATTERN, { error: M.domainInvalid })),
});
export type CampusDomainInput = z.input<typeof campusDomainSchema>;

/** Decision 0542's weight, as `npm run staff -- hide-threshold` takes it: 1 to 50. */
export const hideThresholdSchema = z.object({
  campusId: z.string().min(1).max(40),
  threshold: z.coerce
    .number({ error: M.thresholdInvalid })
    .min(1, { error: M.thresholdInvalid })
    .max(50, { error: M.thresholdInvalid }),
});
export type HideThresholdInput = z.input<typeof hideThresholdSchema>;

/** Decision 0560: a console refund: the ad, full or the unused days, and the key its form was issued with. */
export const refundAdSchema = z.object({
  adId: z.string({ error: M.notFound }).uuid({ error: M.notFound }),
  mode: z.enum(["full", "unused"], { error: M.somethingWentWrong }),
  idempotencyKey: z
    .string({ error: M.somethingWentWrong })
    .regex(/^[A-Za-z0-9_-]{16,64}$/, { error: M.somethingWentWrong }),
  password,
});
export type RefundAdInput = z.input<typeof refundAdSchema>;
