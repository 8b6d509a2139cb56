// One Zod schema per form (docs/architecture.md rule 11), shared by the route actions
// and the browser forms, with the exact messages of spec 1 §5 and §8.
import { z } from "zod";
import { fullNameProblem, NAME_MESSAGES } from "./names.shared";

/** The account forms' one catalogue of messages (decision 0140): sign-up, sign-in, codes and settings. */
export const MESSAGES = {
  emailRequired: "Email is required.",
  emailInvalid: "Invalid email address!",
  passwordRequired: "Password is required.",
  // spec 1 §8 register weak-password.
  passwordTooShort: "Password too short.",
  // Our wording: the spec caps password inputs at 30 characters (maxLength) but gives no message.
  passwordTooLong: "Password must be 30 characters or fewer.",
  // Our wording: the spec disables the button until the box is ticked; this covers forms sent without JavaScript.
  termsRequired: "You must agree to the Terms of Service and Privacy Policy.",
  codeRequired: "Please enter verification code",
  codeIncorrect: "Your code was incorrect. Please try again.",
  newPasswordRequired: "Please enter a new password",
  confirmPasswordRequired: "Must re-enter new password",
  passwordsDoNotMatch: "Passwords do not match",
  newPasswordTooShort: "Passwords must be 6+ characters",
  // Account settings and school verification (spec 1 §2 'Settings', §5, §8).
  usernameRequired: "Username is required.",
  usernameTooShort: "Must be longer than 4 characters.",
  usernameCharacters: "Only letters, numbers, _ and -",
  // Our wording: the spec caps the input at 50 characters but gives no message (decision 0040).
  usernameTooLong: "Username must be 50 characters or fewer.",
  currentPasswordRequired: "Current password required",
  emailNotNew: "Enter a new email",
  phoneRequired: "A phone # is required",
  phoneInvalid: "Invalid phone #",
  genderRequired: "Must select a gender",
  birthDateIncomplete: "Please fill in all the fields",
  // Our wording: the spec's selects allow February 30 (decision 0040).
  birthDateInvalid: "That date doesn't exist. Check the month and day.",
  schoolEmailNotNew: "Enter a new school email",
  schoolEmailInvalid: "Enter a valid school email",
} as const;

/** spec 1 §9. */
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 30;
/** Longest address SMTP allows (RFC 5321); also the e-mail inputs' maxLength. */
export const MAX_EMAIL_LENGTH = 254;
/** A full name is two names of at most 20 characters, a space, and room for a middle name. */
export const MAX_FULL_NAME_LENGTH = 60;

/** spec 1 §5: local part of letters, digits and ._%+-, then @, a domain, a TLD of at least 2 letters. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

// Conform sends an empty input as undefined, the domain functions as "": both mean 'missing'.
function requiredString(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message, abort: true });
}

export const emailSchema = requiredString(MESSAGES.emailRequired)
  .max(MAX_EMAIL_LENGTH, { error: MESSAGES.emailInvalid, abort: true })
  .regex(EMAIL_PATTERN, { error: MESSAGES.emailInvalid })
  .transform((email) => email.toLowerCase());

const passwordSchema = z
  .string({ error: MESSAGES.passwordRequired })
  .min(1, { error: MESSAGES.passwordRequired, abort: true })
  .max(MAX_PASSWORD_LENGTH, { error: MESSAGES.passwordTooLong, abort: true });

export const registerSchema = z.object({
  fullName: z
    .string({ error: NAME_MESSAGES.required })
    .max(MAX_FULL_NAME_LENGTH, { error: NAME_MESSAGES.tooLong, abort: true })
    .superRefine((value, ctx) => {
      const problem = fullNameProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .transform((value) => value.trim().replace(/\s+/g, " ")),
  email: emailSchema,
  password: passwordSchema.min(MIN_PASSWORD_LENGTH, { error: MESSAGES.passwordTooShort }),
  // Conform turns a ticked box ('on') into true; missing means not ticked.
  terms: z
    .boolean({ error: MESSAGES.termsRequired })
    .refine((ticked) => ticked, { error: MESSAGES.termsRequired }),
});
export type RegisterInput = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });

export const verifyCodeSchema = z.object({
  code: requiredString(MESSAGES.codeRequired).regex(/^\d{4}$/, { error: MESSAGES.codeIncorrect }),
});

const newPasswordSchema = z
  .string({ error: MESSAGES.newPasswordRequired })
  .min(1, { error: MESSAGES.newPasswordRequired, abort: true })
  .min(MIN_PASSWORD_LENGTH, { error: MESSAGES.newPasswordTooShort, abort: true })
  .max(MAX_PASSWORD_LENGTH, { error: MESSAGES.passwordTooLong });

/**
 * A password form with 'Confirm password' (spec 1 §5 'Password change'): `confirmPassword` is
 * required and must repeat the field `passwordKey`; the mismatch message waits until both are
 * strings and the confirmation is filled in (an empty one has its own message).
 */
function withConfirmation<Shape extends z.ZodRawShape>(shape: Shape, passwordKey: keyof Shape & string) {
  return z
    .object({
      ...shape,
      confirmPassword: z
        .string({ error: MESSAGES.confirmPasswordRequired })
        .min(1, { error: MESSAGES.confirmPasswordRequired }),
    })
    .refine((value) => Reflect.get(value, passwordKey) === Reflect.get(value, "confirmPassword"), {
      error: MESSAGES.passwordsDoNotMatch,
      path: ["confirmPassword"],
      when: ({ value }) => {
        if (typeof value !== "object" || value === null) return false;
        const password: unknown = Reflect.get(value, passwordKey);
        const confirmation: unknown = Reflect.get(value, "confirmPassword");
        return typeof password === "string" && typeof confirmation === "string" && confirmation.length > 0;
      },
    });
}

/** spec 1 §5 'Password change' messages, used by the reset-password screen. */
export const resetPasswordSchema = withConfirmation(
  { token: z.string().min(1), password: newPasswordSchema },
  "password",
);
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

// ---------------------------------------------------------------------------
// Account settings and school verification (spec 1 §2 'Settings', §5, §8).

/** spec 1 §9: username at least 4 characters ('longer than 4' in the message, 4 accepted), input max 50. */
export const MIN_USERNAME_LENGTH = 4;
export const MAX_USERNAME_LENGTH = 50;
/** spec 1 §9: phone input max 20. */
export const MAX_PHONE_LENGTH = 20;

/**
 * spec 1 §5 'Phone': an optional plus, a country part (1 to 3 digits, optionally in
 * parentheses), then 6 to 14 further digits, each optionally preceded by one
 * separator: a space, dot or hyphen, or a parenthesis around an area code.
 * '+1 (405) 555-0134', '(405) 555-0134', '405.555.0134', '+44 20 7946 0958'.
 */
export const PHONE_PATTERN = /^\+?(?:\d{1,3}|\(\d{1,3}\))(?:(?:[ .-]|[ .-]?\(|\)[ .-]?)?\d){6,14}$/;

/** spec 1 §5 'Username change': letters, digits, _ and -. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

export const usernameSchema = z.object({
  username: requiredString(MESSAGES.usernameRequired)
    .min(MIN_USERNAME_LENGTH, { error: MESSAGES.usernameTooShort, abort: true })
    .max(MAX_USERNAME_LENGTH, { error: MESSAGES.usernameTooLong, abort: true })
    .regex(USERNAME_PATTERN, { error: MESSAGES.usernameCharacters })
    // spec 1 §5: saved in lower case.
    .transform((username) => username.toLowerCase()),
});
export type UsernameInput = z.input<typeof usernameSchema>;

/** spec 1 §5 'Password change', in the spec's order, one message per field. */
export const changePasswordSchema = withConfirmation(
  {
    currentPassword: z
      .string({ error: MESSAGES.currentPasswordRequired })
      .min(1, { error: MESSAGES.currentPasswordRequired, abort: true })
      .max(MAX_PASSWORD_LENGTH, { error: MESSAGES.passwordTooLong }),
    newPassword: newPasswordSchema,
  },
  "newPassword",
);
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** spec 1 §5 'E-mail change': required, the e-mail pattern, different from the current address. */
export function changeEmailSchema(currentEmail: string) {
  return z.object({
    email: emailSchema.refine((email) => email !== currentEmail.toLowerCase(), {
      error: MESSAGES.emailNotNew,
    }),
  });
}
export type ChangeEmailInput = z.input<ReturnType<typeof changeEmailSchema>>;

export const phoneSchema = z.object({
  phone: requiredString(MESSAGES.phoneRequired)
    .max(MAX_PHONE_LENGTH, { error: MESSAGES.phoneInvalid, abort: true })
    .regex(PHONE_PATTERN, { error: MESSAGES.phoneInvalid }),
});
export type PhoneInput = z.input<typeof phoneSchema>;

export const GENDERS = ["male", "female", "other"] as const;
export type Gender = (typeof GENDERS)[number];

export const genderSchema = z.object({
  gender: z.enum(GENDERS, { error: MESSAGES.genderRequired }),
});
export type GenderInput = z.input<typeof genderSchema>;

/** spec 1 §5 / §9: months January to December (MONTH_NAMES), days 1 to 31, years 2021 down to 1970. */
export { MONTH_NAMES } from "../dates.shared";
export const BIRTH_YEAR_NEWEST = 2021;
export const BIRTH_YEAR_OLDEST = 1970;

/** Whether month/day/year name a day of the Gregorian calendar (no February 30). */
export function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const selectValue = z.string().trim().optional();

/**
 * spec 1 §5 'Birth date': all three selects needed ('Please fill in all the fields');
 * values outside the spec's lists or a day the month does not have are refused (ours).
 * The message belongs to the whole form, not one select.
 */
export const birthDateSchema = z
  .object({ month: selectValue, day: selectValue, year: selectValue })
  .transform((value, ctx) => {
    if (!value.month || !value.day || !value.year) {
      ctx.addIssue({ code: "custom", message: MESSAGES.birthDateIncomplete });
      return z.NEVER;
    }
    const [month, day, year] = [value.month, value.day, value.year].map((part) =>
      /^\d{1,4}$/.test(part) ? Number(part) : Number.NaN,
    ) as [number, number, number];
    const inLists =
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 31 &&
      year >= BIRTH_YEAR_OLDEST &&
      year <= BIRTH_YEAR_NEWEST;
    if (!inLists || !isRealDate(year, month, day)) {
      ctx.addIssue({ code: "custom", message: MESSAGES.birthDateInvalid });
      return z.NEVER;
    }
    return { month, day, year };
  });
export type BirthDateInput = z.input<typeof birthDateSchema>;

/** A PIN form (spec 1 §2 verify_email, verify_school_email): the same 4-digit code rules as /verify. */
export const pinSchema = verifyCodeSchema;

/**
 * Letters and digits before the @ (spec 1 §5 'School e-mail'), with single dots,
 * hyphens or underscores between them as school addresses use ('jane.doe@ufl.edu');
 * no '+' aliases, so one mailbox cannot make several accounts (decision 0040).
 */
export const SCHOOL_EMAIL_PATTERN = /^[a-z0-9]+(?:[._-][a-z0-9]+)*@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

/**
 * spec 1 §5 'School e-mail': non-empty, different from the current school e-mail
 * ('Enter a new school email'), letters/digits before the @ and one of the campus's
 * domains or a subdomain ('Enter a valid school email'). The domain rule is passed
 * in (isSchoolEmailDomain bound to the campus), so browser and server share this schema.
 */
export function schoolEmailSchema(options: {
  currentSchoolEmail: string | null;
  isCampusDomain: (email: string) => boolean;
}) {
  const current = options.currentSchoolEmail?.toLowerCase() ?? null;
  return z.object({
    email: requiredString(MESSAGES.schoolEmailInvalid)
      .max(MAX_EMAIL_LENGTH, { error: MESSAGES.schoolEmailInvalid, abort: true })
      .transform((email) => email.toLowerCase())
      .refine((email) => email !== current, { error: MESSAGES.schoolEmailNotNew, abort: true })
      .refine((email) => SCHOOL_EMAIL_PATTERN.test(email) && options.isCampusDomain(email), {
        error: MESSAGES.schoolEmailInvalid,
      }),
  });
}
export type SchoolEmailInput = z.input<ReturnType<typeof schoolEmailSchema>>;

// ---------------------------------------------------------------------------
// Passwordless sign-in and sign-up by e-mail link (spec 1 §2 /login, §4 'Magic link'; decision 0060).

/** spec 1 §2 /login?method=noPassword: the e-mail-only form that sends a sign-in link. */
export const sendLinkSchema = z.object({ email: emailSchema });
export type SendLinkInput = z.input<typeof sendLinkSchema>;

/** Sign-up by e-mail link: the register form without a password; the link carries first and last name. */
export const registerByLinkSchema = registerSchema.omit({ password: true });
export type RegisterByLinkInput = z.input<typeof registerByLinkSchema>;
