// One Zod schema per profile form (docs/architecture.md rule 11), shared by the route
// actions and the browser forms, with the messages of spec 1 §5 and §8.
import { z } from "zod";
import { capitalise, MAX_NAME_LENGTH, NAME_CHARACTERS, NAME_MESSAGES } from "../accounts/names.shared";
import { SOMETHING_WENT_WRONG } from "../errors.shared";

/** spec 1 §5: 'Bio: max 160 characters, counter n / 160'. */
export const MAX_BIO_LENGTH = 160;

/** Decision 0050: an uploaded profile photo may be at most 10 MB. */
export const MAX_PROFILE_PHOTO_MB = 10;

export const PROFILE_MESSAGES = {
  // spec 1 §5.
  userMissingBio: "User doesn't exist. Could't edit bio",
  userMissingPhoto: "User doesn't exist. Could't change profile photo",
  // spec 1 §8 'Account editing'.
  onlyPhotos: "Only photos are allowed!",
  profileUpdated: "Profile Updated",
  photoFailed: "Error updating profile IMG",
  // spec 1 §8 'Something went wrong' (danger) on any failure the user cannot fix.
  somethingWentWrong: SOMETHING_WENT_WRONG,
  // Our wordings (decision 0050): the spec caps these without a message.
  bioTooLong: `Bio must be ${MAX_BIO_LENGTH} characters or fewer.`,
  photoTooLarge: `Photos must be ${MAX_PROFILE_PHOTO_MB} MB or smaller.`,
  photoTooManyPixels: "This photo is too big to process. Try a smaller one.",
  photoUnreadable: "This photo could not be read. Try another one.",
  photoRequired: "Choose a photo to upload.",
  userNotFound: "This user doesn't exist.",
} as const;

/** A textarea sends line breaks as CRLF; the counter and the cap count each as one character. */
export function normaliseBio(bio: string): string {
  return bio.replace(/\r\n?/g, "\n").trim();
}

export const bioSchema = z
  .string()
  .default("")
  .transform(normaliseBio)
  .pipe(z.string().max(MAX_BIO_LENGTH, { error: PROFILE_MESSAGES.bioTooLong }));

/** Collapses runs of spaces, then capitalises each word ('mary ann' → 'Mary Ann', decision 0020). */
function tidyName(value: string): string {
  return value.trim().replace(/\s+/g, " ");
}

function letterCount(value: string): number {
  return [...value.replace(/[^\p{L}]/gu, "")].length;
}

const firstNameSchema = z
  .string({ error: NAME_MESSAGES.required })
  .transform(tidyName)
  .superRefine((value, ctx) => {
    // spec 1 §5 'Register' rules, for the first name on its own.
    if (value === "") ctx.addIssue({ code: "custom", message: NAME_MESSAGES.required });
    else if (!NAME_CHARACTERS.test(value))
      ctx.addIssue({ code: "custom", message: NAME_MESSAGES.characters });
    else if (letterCount(value) < 2) ctx.addIssue({ code: "custom", message: NAME_MESSAGES.firstTooShort });
    else if ([...value].length > MAX_NAME_LENGTH)
      ctx.addIssue({ code: "custom", message: NAME_MESSAGES.tooLong });
  })
  .transform((value) => value.split(" ").map(capitalise).join(" "));

const lastNameSchema = z
  .string({ error: NAME_MESSAGES.required })
  // The stored form is the initial and a period ('S.'): sent back unchanged, it stays valid.
  .transform((value) => tidyName(value).replace(/\.$/, ""))
  .superRefine((value, ctx) => {
    if (value === "") ctx.addIssue({ code: "custom", message: NAME_MESSAGES.required });
    else if (!NAME_CHARACTERS.test(value) || letterCount(value) === 0)
      ctx.addIssue({ code: "custom", message: NAME_MESSAGES.characters });
    else if ([...value].length > MAX_NAME_LENGTH)
      ctx.addIssue({ code: "custom", message: NAME_MESSAGES.tooLong });
  })
  // spec 1 §3: last_name is stored as its initial plus a period.
  .transform((value) => `${(value.match(/\p{L}/u)?.[0] ?? "").toLocaleUpperCase("en-US")}.`);

export const profileNamesSchema = z.object({ firstName: firstNameSchema, lastName: lastNameSchema });
export type ProfileNamesInput = z.input<typeof profileNamesSchema>;

/** /profile/edit: names and bio saved together ('Profile Updated'). */
export const editProfileSchema = z.object({
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  bio: bioSchema,
});
export type EditProfileInput = z.input<typeof editProfileSchema>;

/** The wizard's step 2 ('Describe yourself'). */
export const setUpBioSchema = z.object({ bio: bioSchema });
