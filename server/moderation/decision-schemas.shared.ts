import { z } from "zod";
import { DECISION_LIMITS, ITEM_DECISIONS, STAFF_DECISION_MESSAGES as M, REASON_CODES } from "./rules.shared";

/**
 * Decision 0543: the forms of /mod/items/:id, read the same by the page and by the domain
 * functions. Reasons are plain text (HTML is text); a public reason is required, the private
 * note optional. `version` is the item's version the moderator saw (decision 0541).
 */
const itemId = z.string({ error: M.somethingWentWrong }).uuid({ error: M.somethingWentWrong });
const version = z.coerce.number({ error: M.itemChanged }).int().positive({ error: M.itemChanged });

function requiredText(required: string, max: number, tooLong: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .max(max, { error: tooLong });
}

const publicReason = requiredText(
  M.publicReasonRequired,
  DECISION_LIMITS.publicReasonMax,
  M.publicReasonTooLong,
);
const privateNote = z
  .string()
  .trim()
  .max(DECISION_LIMITS.privateNoteMax, { error: M.privateNoteTooLong })
  .optional()
  .transform((note) => (note ? note : null));
const reasonCode = z.enum(REASON_CODES, { error: M.reasonRequired });

export const decideItemSchema = z
  .object({
    itemId,
    version,
    decision: z.enum(ITEM_DECISIONS, { error: M.decisionRequired }),
    /** '1', '3', '7', '30' or 'lifted' (decision 0543); read for Suspend only. */
    days: z.enum(["1", "3", "7", "30", "lifted"]).optional(),
    reasonCode,
    publicReason,
    privateNote,
  })
  .superRefine((value, issue) => {
    if (value.decision === "suspend" && !value.days) {
      issue.addIssue({ code: "custom", message: M.daysRequired, path: ["days"] });
    }
  });
export type DecideItemInput = z.input<typeof decideItemSchema>;

/** Restore and Lift suspension: the item they are done from, a reason category and a public reason. */
export const itemActionSchema = z.object({ itemId, reasonCode, publicReason, privateNote });
export type ItemActionInput = z.input<typeof itemActionSchema>;

/** 'Send a note': a friendly word to the student, not a strike (decision 0544). */
export const sendNoteSchema = z.object({
  itemId,
  note: requiredText(M.noteRequired, DECISION_LIMITS.noteMax, M.noteTooLong),
});
export type SendNoteInput = z.input<typeof sendNoteSchema>;

/** Approve or Reject an appeal, with the reason the student reads (decision 0544). */
export const decideAppealSchema = z.object({
  itemId,
  version,
  decision: z.enum(["approve", "reject"], { error: M.appealDecisionRequired }),
  publicReason,
  privateNote,
});
export type DecideAppealInput = z.input<typeof decideAppealSchema>;

/**
 * Mute or unmute a reporter of the item (decision 0542): their reports then weigh 0, so a student
 * who reports in bad faith cannot hide anything. `muted` is 'true' or 'false' as the form sends it.
 */
export const reporterMuteSchema = z.object({
  itemId,
  reporterId: z.string({ error: M.somethingWentWrong }).min(1, { error: M.somethingWentWrong }).max(100),
  muted: z.enum(["true", "false"], { error: M.somethingWentWrong }).transform((value) => value === "true"),
});
export type ReporterMuteInput = z.input<typeof reporterMuteSchema>;
