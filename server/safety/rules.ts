import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { type SafetyRuleAction, type SafetyRuleScope, safetyRules } from "../db/schema";
import type { SafetyPattern } from "./matcher";
import { STOPPING_RULES } from "./rules-stopping";
import { WARNING_RULES } from "./rules-warnings";

/**
 * The built-in safety rules (docs/product/safety.md, decision 0652): written by the app at start
 * (`syncBuiltinSafetyRules`), so their patterns and wording stay the product's; a site admin's
 * rules are never touched, and an admin's switching a built-in rule off is kept.
 */

export interface BuiltinRule {
  key: string;
  scope: SafetyRuleScope;
  action: SafetyRuleAction;
  pattern: SafetyPattern;
  message: string;
  countsTowardFlag: boolean;
}

export const BUILTIN_RULES: readonly BuiltinRule[] = [...STOPPING_RULES, ...WARNING_RULES];

/** Where a built-in rule stands among the others: blocks first, then the order above. */
export const BUILTIN_ORDER: ReadonlyMap<string, number> = new Map(
  BUILTIN_RULES.map((rule, index) => [rule.key, index]),
);

/**
 * Decision 0652: writes the built-in rules at start, one statement: new ones inserted, existing
 * built-in ones given the product's current pattern, scope, action and wording. `enabled` is not
 * rewritten (a site admin may have switched one off), and a site admin's own rules (builtin false,
 * keys of their own) are not touched. A key an admin took first stays theirs.
 */
export async function syncBuiltinSafetyRules(db: Queryable, now: Date): Promise<void> {
  await db
    .insert(safetyRules)
    .values(BUILTIN_RULES.map((rule) => ({ ...rule, builtin: true, createdAt: now, updatedAt: now })))
    .onConflictDoUpdate({
      target: safetyRules.key,
      set: {
        scope: sql`excluded.scope`,
        action: sql`excluded.action`,
        pattern: sql`excluded.pattern`,
        message: sql`excluded.message`,
        countsTowardFlag: sql`excluded.counts_toward_flag`,
        updatedAt: sql`case when (${safetyRules.pattern}, ${safetyRules.message}, ${safetyRules.scope}, ${safetyRules.action})
          is distinct from (excluded.pattern, excluded.message, excluded.scope, excluded.action) then excluded.updated_at else ${safetyRules.updatedAt} end`,
      },
      setWhere: sql`${safetyRules.builtin}`,
    });
}
