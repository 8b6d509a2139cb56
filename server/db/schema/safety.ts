import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth";
import * as columns from "./columns";

/** Decision 0650: where a safety rule applies. */
export const SAFETY_RULE_SCOPES = ["chat", "listing", "both"] as const;
export type SafetyRuleScope = (typeof SAFETY_RULE_SCOPES)[number];

/**
 * Decision 0650: what a rule does when it matches. 'block' refuses the write with the rule's
 * message to the writer (a chat message is neither stored nor delivered; a listing's text is
 * refused); 'warn' stores the message and draws the rule's card under it for the recipient;
 * 'nudge' asks the sender first (Edit / Send anyway).
 */
export const SAFETY_RULE_ACTIONS = ["block", "warn", "nudge"] as const;
export type SafetyRuleAction = (typeof SAFETY_RULE_ACTIONS)[number];

/**
 * Decision 0650: the one data-driven rule set that `sendMessage`, post creation and post editing
 * check inside their transactions. `key` names a rule stably (the built-in ones are written by the
 * app at start, an admin's get their own key); `pattern` is the bounded matcher's description
 * (terms, nearness, or a named detector such as phone numbers or links), never a regular
 * expression a person typed; `message` is the product's words shown to the sender (block, nudge)
 * or on the recipient's warning card (warn), never text from the message itself. `counts_toward_flag`
 * marks the warnings that limit a sender who sends them to 3 or more students in 24 hours.
 */
export const safetyRules = pgTable(
  "safety_rules",
  {
    id: columns.id(),
    key: text("key").notNull(),
    scope: text("scope", { enum: SAFETY_RULE_SCOPES }).notNull(),
    action: text("action", { enum: SAFETY_RULE_ACTIONS }).notNull(),
    pattern: jsonb("pattern").notNull(),
    message: text("message").notNull(),
    countsTowardFlag: boolean("counts_toward_flag").notNull().default(false),
    builtin: boolean("builtin").notNull().default(false),
    enabled: boolean("enabled").notNull().default(true),
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: columns.createdAt(),
    updatedAt: columns.time("updated_at").notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("safety_rules_key_unique").on(table.key),
    index("safety_rules_enabled_idx").on(table.scope).where(sql`${table.enabled}`),
    check(
      "safety_rules_values",
      sql`${table.scope} in ('chat', 'listing', 'both') and ${table.action} in ('block', 'warn', 'nudge')
        and char_length(${table.key}) between 1 and 60 and char_length(${table.message}) between 1 and 500`,
    ),
  ],
);
