import { z } from "zod";
import { AD_MESSAGES } from "./errors.shared";

/** spec 2 §9 'Boost price $5 per day'. */
export const DAILY_PRICE_CENTS = 500;
/** spec 2 §9 'Duration slider 1 to 30 days, default 4'. */
export const MIN_DAYS = 1;
export const MAX_DAYS = 30;
export const DEFAULT_DAYS = 4;
/** Decision 0271: 'run until pause' is paid 30 days ahead; unused whole days are refunded. */
export const RUN_UNTIL_PAUSE_DAYS = 30;
export const TITLE_MAX = 50;
export const WEBSITE_MAX = 50;

/** spec 2 §9 CTA labels, the first the default. */
export const CTA_LABELS = ["Visit Website", "Learn More", "Shop Now", "Book Now", "Sign Up"] as const;
/** spec 2 §9 CTA types, as the boost page names the goals. */
export const AD_GOALS = ["website", "message", "profile"] as const;
export type AdGoal = (typeof AD_GOALS)[number];

export const GOAL_TEXT: Record<AdGoal, string> = {
  website: "Get more website visits",
  message: "Get more messages",
  profile: "Get more profile visits",
};

/** What a message or profile ad's button says (no label field for those goals). */
export const GOAL_LABEL: Record<Exclude<AdGoal, "website">, string> = {
  message: "Send Message",
  profile: "View Profile",
};

/**
 * spec 2 §5 'Website URL … must parse as a valid URL ("Website URL must have https & www.")':
 * an absolute https address with a dotted host name (a bare word or an http link is refused).
 */
export function isFullWebsiteUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === "https:" && /^[^.]+(\.[^.]+)+$/.test(url.hostname) && !url.username;
}

const trimmed = z.preprocess((value) => (typeof value === "string" ? value.trim() : value), z.string());

/** The boost form (spec 2 §5 'Boost'), shared by the page and boostPost. */
export const boostSchema = z
  .object({
    goal: z.enum(AD_GOALS).default("website"),
    websiteUrl: trimmed.optional(),
    buttonLabel: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z.enum(CTA_LABELS, { error: AD_MESSAGES.labelRequired }).optional(),
    ),
    title: trimmed.pipe(z.string().max(TITLE_MAX, AD_MESSAGES.titleTooLong)).default(""),
    days: z.coerce.number().int().min(MIN_DAYS).max(MAX_DAYS).default(DEFAULT_DAYS),
    runUntilPause: z.preprocess((value) => value === true || value === "on" || value === "true", z.boolean()),
  })
  .superRefine((value, issues) => {
    if (value.goal !== "website") return;
    const url = value.websiteUrl ?? "";
    if (url === "") {
      issues.addIssue({ code: "custom", path: ["websiteUrl"], message: AD_MESSAGES.websiteRequired });
    } else if (url.length > WEBSITE_MAX) {
      issues.addIssue({ code: "custom", path: ["websiteUrl"], message: AD_MESSAGES.websiteTooLong });
    } else if (!isFullWebsiteUrl(url)) {
      issues.addIssue({ code: "custom", path: ["websiteUrl"], message: AD_MESSAGES.websiteInvalid });
    }
    if (!value.buttonLabel) {
      issues.addIssue({ code: "custom", path: ["buttonLabel"], message: AD_MESSAGES.labelRequired });
    }
  });

export type BoostInput = z.output<typeof boostSchema>;

/** spec 2 §5 'Ad title max 50 characters; save is disabled when empty or unchanged'. */
export const adTitleSchema = z.object({
  title: trimmed.pipe(z.string().min(1, AD_MESSAGES.titleRequired).max(TITLE_MAX, AD_MESSAGES.titleTooLong)),
});

/** The days paid for (spec 2 §9: amount_budgeted = 5 × days × 100 cents). */
export function paidDays(input: { days: number; runUntilPause: boolean }): number {
  return input.runUntilPause ? RUN_UNTIL_PAUSE_DAYS : input.days;
}

/** spec 1 §3: money in cents, shown as US dollars ('$0.00'). */
export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** spec 2 §4: 'Time left shows "Expired" when zero or less, otherwise days, hours, minutes'. */
export function formatTimeLeft(ms: number): string {
  if (ms <= 0) return "Expired";
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  const rest = minutes % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} day${days === 1 ? "" : "s"}`);
  if (hours > 0) parts.push(`${hours} hour${hours === 1 ? "" : "s"}`);
  if (days === 0) parts.push(`${rest} minute${rest === 1 ? "" : "s"}`);
  return parts.join(", ");
}
