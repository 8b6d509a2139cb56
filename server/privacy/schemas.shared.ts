import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "../accounts/schemas.shared";
import { PRIVACY_MESSAGES } from "./messages.shared";

/**
 * Decision 0571: the Delete my account form. An account with a password confirms with it; one
 * without (Google sign-in, an e-mail link) with the 4-digit code mailed to it. Both tick the box.
 */
export const deleteAccountSchema = z.object({
  password: z
    .string({ error: PRIVACY_MESSAGES.passwordRequired })
    .max(MAX_PASSWORD_LENGTH, { error: PRIVACY_MESSAGES.passwordWrong })
    .optional(),
  code: z
    .string({ error: PRIVACY_MESSAGES.codeRequired })
    .trim()
    .regex(/^\d{4}$/, { error: PRIVACY_MESSAGES.codeFormat })
    .optional(),
  confirm: z.literal("on", { error: PRIVACY_MESSAGES.confirmRequired }),
});
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;

/** The archive link's token: 43 base64url characters (32 random bytes). */
export const exportTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
