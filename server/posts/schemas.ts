// The composer's form schemas, shared by the server and the browser (docs/architecture.md rule 11),
// with its rules (post-rules.ts, re-exported). No server imports.
import { z } from "zod";
import { ALL_CATEGORIES, isPostCategory } from "./categories.shared";
import { LISTING_CONDITIONS, LISTING_KINDS, LISTING_MESSAGES, PRICE_TERMS } from "./listing.shared";
import { POST_MESSAGES } from "./post-rules.shared";
import { MAX_RICH_TEXT_JSON_LENGTH } from "./rich-text.shared";

export * from "./post-rules.shared";

/**
 * The composer's listing fields as the form sends them (all optional): `price` in dollars,
 * `priceTerms` 'firm' | 'offers' | 'free' (free sets the price to 0), `condition`, `listingKind`.
 */
export const listingFormFields = {
  price: z.string().max(20, { error: LISTING_MESSAGES.badPrice }).optional(),
  priceTerms: z
    .enum(["", ...PRICE_TERMS, "free"], { error: LISTING_MESSAGES.badListingField })
    .optional()
    .transform((value) => value || undefined),
  condition: z
    .enum(["", ...LISTING_CONDITIONS], { error: LISTING_MESSAGES.badCondition })
    .optional()
    .transform((value) => value || undefined),
  listingKind: z
    .enum(["", ...LISTING_KINDS], { error: LISTING_MESSAGES.badListingField })
    .optional()
    .transform((value) => value || undefined),
};

/**
 * The composer form's fields other than files (spec 2 §4 'Composer'): the Lexical
 * state as JSON and an optional category. The server checks the text itself
 * (rich-text.ts); this schema only shapes the form data.
 */
export const postFormSchema = z.object({
  // Decision 0115: over the cap, the text is too long whatever it holds; it is not parsed.
  text: z.string().max(MAX_RICH_TEXT_JSON_LENGTH, { error: POST_MESSAGES.tooManyCharacters }).optional(),
  category: z
    .string()
    .optional()
    .transform((value) => (!value || value === ALL_CATEGORIES.value ? null : value))
    .refine((value) => value === null || isPostCategory(value), { error: POST_MESSAGES.unknownCategory }),
  // Decision 0170: the optional listing details; createPost reads the price itself.
  ...listingFormFields,
});

/** The comment composer (spec 2 §2 'Write a comment...'): the Lexical state as JSON. */
export const commentFormSchema = z.object({
  text: z.string().max(MAX_RICH_TEXT_JSON_LENGTH, { error: POST_MESSAGES.tooManyCharacters }).optional(),
});
