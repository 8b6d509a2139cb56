import { z } from "zod";

/**
 * Decision 0654: what /admin/safety shows and reads — where a rule applies and what it does, in
 * words, and the form that adds a rule. Shared: the page's labels and the server's schema are one.
 */

export const SAFETY_SCOPE_LABELS = { chat: "Chat", listing: "Listings", both: "Chat and listings" } as const;
export const SAFETY_ACTION_LABELS = { block: "Block", nudge: "Nudge", warn: "Warn" } as const;

export const SAFETY_ADMIN_MESSAGES = {
  nameRequired: "Name the rule.",
  nameInvalid: "Use lower-case letters, digits and hyphens, like fake-tickets (at most 60).",
  nameTaken: "A rule with this name exists already. Choose another name.",
  scopeRequired: "Choose where the rule applies.",
  actionRequired: "Choose what the rule does.",
  patternRequired: "Write the pattern: words or phrases, one per line, or the pattern's JSON.",
  patternTooLong: "Keep the pattern to 4000 characters.",
  patternNotJson: "The pattern starts with { but is not valid JSON.",
  nudgeChatOnly: "A nudge asks the sender of a chat message first: choose Chat, or Block.",
  warnNeedsChat: "A warning is a card under a chat message: choose Chat or Chat and listings, or Block.",
  messageRequired: "Write what the writer (block, nudge) or the recipient (warn) reads.",
  messageTooLong: "Keep the message to 500 characters.",
  added: "Rule added. It applies to the next message or listing.",
  switchedOn: "Rule switched on.",
  switchedOff: "Rule switched off.",
  somethingWentWrong: "Something went wrong. Try again.",
} as const;

export const PATTERN_MAX_CHARS = 4000;

/** The add-a-rule form. The pattern's own reading (JSON or phrases) is server/safety/admin-rules.ts's. */
export const newSafetyRuleSchema = z
  .object({
    name: z
      .string({ error: SAFETY_ADMIN_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: SAFETY_ADMIN_MESSAGES.nameRequired, abort: true })
      .max(60, { error: SAFETY_ADMIN_MESSAGES.nameInvalid })
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: SAFETY_ADMIN_MESSAGES.nameInvalid }),
    scope: z.enum(["chat", "listing", "both"], { error: SAFETY_ADMIN_MESSAGES.scopeRequired }),
    action: z.enum(["block", "warn", "nudge"], { error: SAFETY_ADMIN_MESSAGES.actionRequired }),
    pattern: z
      .string({ error: SAFETY_ADMIN_MESSAGES.patternRequired })
      .trim()
      .min(1, { error: SAFETY_ADMIN_MESSAGES.patternRequired, abort: true })
      .max(PATTERN_MAX_CHARS, { error: SAFETY_ADMIN_MESSAGES.patternTooLong }),
    message: z
      .string({ error: SAFETY_ADMIN_MESSAGES.messageRequired })
      .trim()
      .min(1, { error: SAFETY_ADMIN_MESSAGES.messageRequired, abort: true })
      .max(500, { error: SAFETY_ADMIN_MESSAGES.messageTooLong }),
    /** A checkbox: present ('on') or absent. Only a warning counts toward the flag. */
    countsTowardFlag: z.union([z.literal("on"), z.boolean()]).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.action === "nudge" && value.scope !== "chat")
      ctx.addIssue({ code: "custom", path: ["action"], message: SAFETY_ADMIN_MESSAGES.nudgeChatOnly });
    if (value.action === "warn" && value.scope === "listing")
      ctx.addIssue({ code: "custom", path: ["action"], message: SAFETY_ADMIN_MESSAGES.warnNeedsChat });
  });
export type NewSafetyRuleInput = z.input<typeof newSafetyRuleSchema>;
