import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { type SafetyRuleAction, safetyRules } from "../db/schema";
import { SafetyError } from "./errors";
import {
  type CompiledPattern,
  compilePattern,
  matches,
  readText,
  safetyPatternSchema,
  termPrefixes,
  type WriterFacts,
} from "./matcher";
import { BUILTIN_ORDER } from "./rules";

/**
 * The one safety check (docs/product/safety.md, decision 0651) that sending a message, creating
 * a post, editing a post and writing a comment (decision 0655) call inside their transactions, on
 * the server, for every path that stores text. It reads the enabled rules of the scope in one indexed query
 * (safety_rules_enabled_idx), compiles each rule once per version (cached by id and updated_at),
 * reads the text once, and answers:
 * - a block rule matched → throws SafetyError 'safety-blocked' with the rule's message;
 * - a nudge rule matched and the writer has not confirmed → throws 'safety-nudge';
 * - otherwise the first warn rule that matched (its id goes on the stored message), or null.
 */

export interface SafetyWriter {
  id: string;
  /** When the account was created (the new-account link rule counts hours from it by the clock). */
  createdAt: Date;
}

export type SafetyScope = "chat" | "listing" | "comment";

export interface SafetyCheckInput {
  writer: SafetyWriter;
  /**
   * 'chat' for a message, 'listing' for a post's text, 'comment' for a comment's: only the block
   * rules for both chat and listings (codes, shorteners, look-alikes, posing as staff) apply to a
   * comment (docs/product/safety.md 'Comments').
   */
  scope: SafetyScope;
  text: string;
  /** The message's recipient (chat), for the caller's flag count; not needed by the rules themselves. */
  recipientId?: string;
  /** 'Send anyway': the sender saw the nudge and sends as written. */
  acknowledgedNudge?: boolean;
}

export interface SafetyWarning {
  ruleId: string;
  key: string;
  countsTowardFlag: boolean;
}

interface LoadedRule {
  id: string;
  key: string;
  action: SafetyRuleAction;
  message: string;
  countsTowardFlag: boolean;
  builtin: boolean;
  compiled: CompiledPattern;
}

const ACTION_RANK: Record<SafetyRuleAction, number> = { block: 0, nudge: 1, warn: 2 };

/** Compiled patterns by rule id and version; a rule changes rarely, so this stays small. */
const compiledCache = new Map<string, { version: number; compiled: CompiledPattern | null }>();
const prefixCache = new Map<string, Set<string>>();
const MAX_CACHED = 500;

function compiledOf(id: string, version: number, pattern: unknown): CompiledPattern | null {
  const cached = compiledCache.get(id);
  if (cached && cached.version === version) return cached.compiled;
  const parsed = safetyPatternSchema.safeParse(pattern);
  // A stored pattern that no longer reads (written by hand in the database) matches nothing.
  const compiled = parsed.success ? compilePattern(parsed.data) : null;
  if (compiledCache.size >= MAX_CACHED) compiledCache.clear();
  compiledCache.set(id, { version, compiled });
  return compiled;
}

async function loadRules(
  db: Queryable,
  scope: SafetyScope,
): Promise<{ rules: LoadedRule[]; prefixes: Set<string> }> {
  const rows = await db
    .select({
      id: safetyRules.id,
      key: safetyRules.key,
      action: safetyRules.action,
      pattern: safetyRules.pattern,
      message: safetyRules.message,
      countsTowardFlag: safetyRules.countsTowardFlag,
      builtin: safetyRules.builtin,
      updatedAt: safetyRules.updatedAt,
    })
    .from(safetyRules)
    .where(
      and(
        eq(safetyRules.enabled, true),
        scope === "comment"
          ? and(eq(safetyRules.scope, "both"), eq(safetyRules.action, "block"))
          : inArray(safetyRules.scope, [scope, "both"]),
      ),
    );
  const rules: LoadedRule[] = [];
  for (const row of rows) {
    const compiled = compiledOf(row.id, row.updatedAt.getTime(), row.pattern);
    if (compiled) rules.push({ ...row, compiled });
  }
  rules.sort(
    (a, b) =>
      ACTION_RANK[a.action] - ACTION_RANK[b.action] ||
      Number(b.builtin) - Number(a.builtin) ||
      (BUILTIN_ORDER.get(a.key) ?? 0) - (BUILTIN_ORDER.get(b.key) ?? 0) ||
      a.key.localeCompare(b.key),
  );
  const signature = rows
    .map((row) => `${row.id}:${row.updatedAt.getTime()}`)
    .sort()
    .join(",");
  let prefixes = prefixCache.get(signature);
  if (!prefixes) {
    if (prefixCache.size >= 20) prefixCache.clear();
    prefixes = termPrefixes(rules.map((rule) => rule.compiled));
    prefixCache.set(signature, prefixes);
  }
  return { rules, prefixes };
}

/** The site's own domains (never look-alikes): the public address's host and the campus hosts. */
export function ownDomains(ctx: Pick<AppContext, "config">): string[] {
  const hosts = Object.values(ctx.config.campusHosts ?? {});
  if (ctx.config.publicUrl) {
    try {
      hosts.push(new URL(ctx.config.publicUrl).hostname);
    } catch {
      // An unreadable PUBLIC_URL is the config's to report; the rules go on without it.
    }
  }
  return [...new Set(hosts.map((host) => host.toLowerCase().replace(/^www\./, "")))];
}

/**
 * Checks a text against the rules of its scope (see above). `db` is the write's transaction.
 * Text that is empty (a photo alone) is not read.
 */
export async function checkSafety(
  db: Queryable,
  ctx: Pick<AppContext, "config" | "clock">,
  input: SafetyCheckInput,
): Promise<SafetyWarning | null> {
  if (input.text.trim() === "") return null;
  const { rules, prefixes } = await loadRules(db, input.scope);
  if (rules.length === 0) return null;
  const read = readText(input.text, prefixes);
  const writer: WriterFacts = {
    accountAgeHours: (ctx.clock.now().getTime() - input.writer.createdAt.getTime()) / 3_600_000,
    ownDomains: ownDomains(ctx),
  };
  for (const rule of rules) {
    if (!matches(read, rule.compiled, writer)) continue;
    if (rule.action === "block") throw new SafetyError("safety-blocked", rule.message, rule.key);
    if (rule.action === "nudge") {
      if (input.acknowledgedNudge) continue;
      throw new SafetyError("safety-nudge", rule.message, rule.key);
    }
    return { ruleId: rule.id, key: rule.key, countsTowardFlag: rule.countsTowardFlag };
  }
  return null;
}

/**
 * The rules' verdict on a text without a database (the corpus test and the benchmark): the keys
 * of every rule that matches, in the order the check applies them.
 */
export function matchingRuleKeys(
  rules: readonly { key: string; pattern: unknown; scope: string }[],
  text: string,
  scope: "chat" | "listing",
  writer: WriterFacts,
): string[] {
  const compiled = rules
    .filter((rule) => rule.scope === scope || rule.scope === "both")
    .flatMap((rule) => {
      const parsed = safetyPatternSchema.safeParse(rule.pattern);
      return parsed.success ? [{ key: rule.key, compiled: compilePattern(parsed.data) }] : [];
    });
  const read = readText(text, termPrefixes(compiled.map((rule) => rule.compiled)));
  return compiled.filter((rule) => matches(read, rule.compiled, writer)).map((rule) => rule.key);
}
