import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Viewer } from "../accounts/viewer";
import { AdminError, adminNotFound, invalidAdminInput } from "../admin/errors.shared";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type SafetyRuleAction, type SafetyRuleScope, safetyRules } from "../db/schema";
import { appendModerationLog } from "../staff/moderation-log";
import { requireSiteAdmin } from "../staff/roles";
import { parseInput } from "../validation";
import { type NewSafetyRuleInput, newSafetyRuleSchema, SAFETY_ADMIN_MESSAGES } from "./admin-rules.shared";
import { type SafetyPattern, safetyPatternSchema } from "./matcher";
import { BUILTIN_ORDER } from "./rules";

/**
 * Decision 0654: /admin/safety, where a site admin extends the one rule set (decision 0650): the
 * rules listed, a rule added, a rule switched on or off. Rules are never deleted (a warned
 * message keeps its rule's id) and an admin never edits a built-in one (the app rewrites those at
 * start, decision 0652); switching one off is kept. Site admins only: anyone else, not found.
 */

export interface AdminSafetyRule {
  id: string;
  name: string;
  scope: SafetyRuleScope;
  action: SafetyRuleAction;
  message: string;
  /** The stored pattern as JSON, for the page to show as written. */
  pattern: string;
  countsTowardFlag: boolean;
  builtin: boolean;
  enabled: boolean;
}

/** Every rule: the built-in ones in the product's order, then the admins' by name. */
export async function listSafetyRules(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
): Promise<AdminSafetyRule[]> {
  await requireSiteAdmin(ctx, viewer);
  const rows = await ctx.db.select().from(safetyRules).orderBy(asc(safetyRules.key));
  const rank = (row: { builtin: boolean; key: string }) =>
    row.builtin ? (BUILTIN_ORDER.get(row.key) ?? BUILTIN_ORDER.size) : BUILTIN_ORDER.size + 1;
  return rows
    .sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key))
    .map((row) => ({
      id: row.id,
      name: row.key,
      scope: row.scope,
      action: row.action,
      message: row.message,
      pattern: JSON.stringify(row.pattern, null, 2),
      countsTowardFlag: row.countsTowardFlag,
      builtin: row.builtin,
      enabled: row.enabled,
    }));
}

/**
 * Every console change is in the staff's log (docs/product/operating-the-site.md); a rule is the
 * whole site's, so its row belongs to no campus (like a job's run, decision 0552).
 */
async function logRuleChange(
  tx: Queryable,
  actorId: string,
  action: "add_safety_rule" | "switch_safety_rule",
  ruleId: string,
  facts: { name: string; enabled?: boolean; now: Date },
): Promise<void> {
  const { now, ...details } = facts;
  await appendModerationLog(tx, {
    campusId: null,
    actorId,
    source: "staff",
    actorRole: "site_admin",
    action,
    targetKind: "safety_rule",
    targetId: ruleId,
    targetUserId: null,
    details,
    at: now,
  });
}

const MAX_TERM_CHARS = 40;
const MAX_TERMS = 100;

function patternError(message: string): AdminError {
  return new AdminError("invalid-input", message, "pattern");
}

/**
 * The pattern as the form takes it: the matcher's JSON (decision 0651) when it starts with '{',
 * otherwise words and phrases, one per line or separated by commas (a 'terms' pattern). Either
 * way it must read as the bounded matcher's pattern, or the form says where it does not.
 */
export function readPatternText(text: string): SafetyPattern {
  const trimmed = text.trim();
  let raw: unknown;
  if (trimmed.startsWith("{")) {
    try {
      raw = JSON.parse(trimmed);
    } catch {
      throw patternError(SAFETY_ADMIN_MESSAGES.patternNotJson);
    }
  } else {
    const terms = trimmed
      .split(/[\n,]/)
      .map((term) => term.trim())
      .filter((term) => term !== "");
    const long = terms.find((term) => term.length > MAX_TERM_CHARS);
    if (long !== undefined)
      throw patternError(
        `Each word or phrase is at most ${MAX_TERM_CHARS} characters: '${long.slice(0, 20)}…' is longer.`,
      );
    if (terms.length > MAX_TERMS) throw patternError(`A pattern has at most ${MAX_TERMS} words or phrases.`);
    raw = { kind: "terms", terms };
  }
  const parsed = safetyPatternSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path.length === 1 && issue.path[0] === "kind")
      throw patternError("The pattern's kind is terms, detector or any (the matcher takes nothing else).");
    const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join(".")})` : "";
    throw patternError(`The pattern doesn't fit the matcher${where}: ${issue?.message ?? "unreadable"}.`);
  }
  return parsed.data;
}

/**
 * Adds a site admin's rule, enabled, under its own name. A name already used (by a built-in rule
 * or another admin's) is refused; nothing is written when any field is wrong.
 */
export async function addSafetyRule(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: NewSafetyRuleInput,
): Promise<{ id: string; name: string }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(newSafetyRuleSchema, input, invalidAdminInput);
  const pattern = readPatternText(value.pattern);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(safetyRules)
      .values({
        key: value.name,
        scope: value.scope,
        action: value.action,
        pattern,
        message: value.message,
        countsTowardFlag: value.action === "warn" && Boolean(value.countsTowardFlag),
        builtin: false,
        enabled: true,
        createdBy: admin.id,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: safetyRules.key })
      .returning({ id: safetyRules.id, name: safetyRules.key });
    if (!row) throw new AdminError("invalid-input", SAFETY_ADMIN_MESSAGES.nameTaken, "name");
    await logRuleChange(tx, admin.id, "add_safety_rule", row.id, { name: row.name, now });
    return row;
  });
}

export const safetyRuleSwitchSchema = z.object({
  ruleId: z.uuid({ error: "Choose a rule." }),
  enabled: z.enum(["true", "false"], { error: "Choose on or off." }),
});
export type SafetyRuleSwitchInput = z.input<typeof safetyRuleSwitchSchema>;

/**
 * Switches a rule on or off (built-in ones too: the start-up rewrite keeps an admin's 'off',
 * decision 0652). The next check reads the enabled rules afresh.
 */
export async function setSafetyRuleEnabled(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: SafetyRuleSwitchInput,
): Promise<{ name: string; enabled: boolean }> {
  const admin = await requireSiteAdmin(ctx, viewer);
  const value = parseInput(safetyRuleSwitchSchema, input, invalidAdminInput);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(safetyRules)
      .set({ enabled: value.enabled === "true" })
      .where(eq(safetyRules.id, value.ruleId))
      .returning({ name: safetyRules.key, enabled: safetyRules.enabled });
    if (!row) throw adminNotFound();
    await logRuleChange(tx, admin.id, "switch_safety_rule", value.ruleId, {
      name: row.name,
      enabled: row.enabled,
      now,
    });
    return row;
  });
}
