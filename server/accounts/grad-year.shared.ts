import { z } from "zod";
import { BADGE_MESSAGES, gradYearChoices } from "./badge.shared";

/*
 * The class year's form rule (decision 0680), apart from badge.shared.ts: every post card reads
 * that module, and this one brings zod, which only the forms that ask the year need.
 */

/** A graduation year as a form sends it: one of gradYearChoices(now), else 'Choose your graduation year'. */
export function gradYearSchema(now: Date) {
  const choices = new Set(gradYearChoices(now));
  return z
    .union([z.string(), z.number()], { error: BADGE_MESSAGES.gradYearInvalid })
    .transform((value) => (typeof value === "number" ? String(value) : value.trim()))
    .refine((value) => /^\d{4}$/.test(value) && choices.has(Number(value)), {
      error: BADGE_MESSAGES.gradYearInvalid,
    })
    .transform(Number);
}

/** The form that gives only the year (the banner, a renewal): `gradYear`. */
export function gradYearFormSchema(now: Date) {
  return z.object({ gradYear: gradYearSchema(now) });
}
