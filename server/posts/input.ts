import { z } from "zod";
import type { Viewer } from "../accounts/viewer";
import { parseInput } from "../validation";
import { ALL_CATEGORIES, isPostCategory } from "./categories.shared";
import { invalidPostInput, PostError } from "./errors";
import { type ListingCondition, type ListingKind, type PriceTerms, parsePrice } from "./listing.shared";
import type { RichTextState } from "./rich-text.shared";
import { parseRichText } from "./rich-text-schema.shared";
import { listingFormFields, POST_MESSAGES } from "./schemas";

/**
 * The checks posts, comments and saves share (decision 0150: split out of posts.ts so each of
 * those modules reads its input the same way).
 */

export interface CheckedText {
  state: RichTextState | null;
  plainText: string;
}

/**
 * spec 2 §5: the Lexical state is well formed and at most 500 characters (line breaks count 2);
 * normalised, and within the node cap of decision 0115 (over it: 'Error: Too many characters!').
 */
const postTextSchema = z.unknown().transform((input, context): CheckedText => {
  const result = parseRichText(input);
  if (!result.ok) {
    const postError = result.code === "unreadable" ? "invalid-input" : "too-many-characters";
    context.addIssue({ code: "custom", message: result.message, params: { postError } });
    return z.NEVER;
  }
  return { state: result.state, plainText: result.plainText };
});

/** spec 2 §3: one of the 32 values, or none ('All categories' in the picker means none). */
const postCategorySchema = z
  .string()
  .nullish()
  .transform((input) => (!input || input === ALL_CATEGORIES.value ? null : input))
  .refine((value) => value === null || isPostCategory(value), { error: POST_MESSAGES.unknownCategory });

/** The text of a post or comment (server/validation.ts parseInput, decision 0150). */
export function readText(input: unknown): CheckedText {
  return parseInput(postTextSchema, input, invalidPostInput);
}

export function readCategory(input: string | null | undefined): string | null {
  return parseInput(postCategorySchema, input, invalidPostInput);
}

/**
 * One's own campus only (decision 0082): posting, commenting and saving are refused
 * on another campus's content, whatever host the request came through.
 */
export function assertOwnCampus(member: Viewer, campusId: string): void {
  if (member.campusId !== campusId) throw new PostError("other-campus", POST_MESSAGES.otherCampus);
}

/** The listing fields as a caller sends them (decision 0170: every one optional). */
export interface ListingInput {
  /** Dollars as typed ('40', '12.50'); empty for no price. */
  price?: string | null;
  /** 'free' sets the price to 0 ('Free'). */
  priceTerms?: string | null;
  condition?: string | null;
  listingKind?: string | null;
}

export interface ListingColumns {
  priceCents: number | null;
  priceTerms: PriceTerms | null;
  condition: ListingCondition | null;
  listingKind: ListingKind;
}

const listingInputSchema = z
  .object({
    price: listingFormFields.price.nullish(),
    priceTerms: listingFormFields.priceTerms,
    condition: listingFormFields.condition,
    listingKind: listingFormFields.listingKind,
  })
  .transform((input, context): ListingColumns => {
    const terms = input.priceTerms;
    const price = terms === "free" ? { cents: 0 } : parsePrice(input.price);
    if ("error" in price) {
      context.addIssue({ code: "custom", message: price.error, path: ["price"] });
      return z.NEVER;
    }
    return {
      priceCents: price.cents,
      // Terms say something only about a price above 0 ('Free' is neither firm nor open to offers).
      priceTerms: price.cents && (terms === "firm" || terms === "offers") ? terms : null,
      condition: input.condition ?? null,
      listingKind: input.listingKind ?? "selling",
    };
  });

/** The listing fields of a new post, checked (decision 0170). */
export function readListing(input: ListingInput | null | undefined): ListingColumns {
  return parseInput(
    listingInputSchema,
    {
      price: input?.price ?? undefined,
      priceTerms: input?.priceTerms ?? undefined,
      condition: input?.condition ?? undefined,
      listingKind: input?.listingKind ?? undefined,
    },
    invalidPostInput,
  );
}
