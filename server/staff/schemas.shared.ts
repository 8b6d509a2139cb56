import { z } from "zod";
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from "../accounts/schemas.shared";
import { STAFF_MESSAGES } from "./errors.shared";

// Conform sends an empty input as undefined, the domain functions as "": both mean 'missing'.
function requiredString(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true });
}

/**
 * Decision 0520: /admin/moderators' form, a campus and an e-mail, read the same on the page and
 * by appointModerator. The address is the one the student signs in with, as the sign-up stores
 * it (lower case).
 */
export const appointModeratorSchema = z.object({
  campusId: requiredString(STAFF_MESSAGES.campusRequired),
  email: requiredString(STAFF_MESSAGES.emailRequired)
    .max(MAX_EMAIL_LENGTH, { error: STAFF_MESSAGES.emailInvalid, abort: true })
    .regex(EMAIL_PATTERN, { error: STAFF_MESSAGES.emailInvalid })
    .transform((email) => email.toLowerCase()),
});
export type AppointModeratorInput = z.input<typeof appointModeratorSchema>;

/** The Remove button of a moderator's row: the role's id. */
export const removeModeratorSchema = z.object({
  roleId: z.string({ error: STAFF_MESSAGES.notModerator }).uuid({ error: STAFF_MESSAGES.notModerator }),
});
