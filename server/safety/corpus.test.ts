import { describe, expect, it } from "vitest";
import { matchingRuleKeys } from "./check";
import ordinary from "./corpus/ordinary.json";
import scams from "./corpus/scams.json";
import { BUILTIN_RULES } from "./rules";

/**
 * docs/product/safety.md 'How well the rules catch': every scam phrasing of the corpus is caught
 * by its rule (the rule the check applies first), and at most 2 % of ordinary marketplace messages
 * trigger any rule. An account older than a day, so the new-account link rule stays out of it.
 */
const writer = { accountAgeHours: 24 * 30, ownDomains: ["campusbuysell.com"] };

describe("the safety corpus", () => {
  it("holds at least 60 scam phrasings, each with a source, and at least 100 ordinary messages", () => {
    expect(scams.length).toBeGreaterThanOrEqual(60);
    expect(ordinary.length).toBeGreaterThanOrEqual(100);
    for (const scam of scams) expect(scam.source.length).toBeGreaterThan(10);
  });

  it("catches every scam phrasing with the right rule", () => {
    const missed = scams
      .map((scam) => ({ ...scam, caught: matchingRuleKeys(BUILTIN_RULES, scam.text, "chat", writer) }))
      .filter((scam) => scam.caught[0] !== scam.rule);
    console.info(`safety corpus: recall ${scams.length - missed.length}/${scams.length}`);
    expect(missed).toEqual([]);
  });

  it("lets at least 98 % of ordinary messages through untouched, and reports the rate", () => {
    const flagged = ordinary
      .map((message) => ({
        ...message,
        caught: matchingRuleKeys(BUILTIN_RULES, message.text, "chat", writer),
      }))
      .filter((message) => message.caught.length > 0);
    const rate = flagged.length / ordinary.length;
    console.info(
      `safety corpus: false positives ${flagged.length}/${ordinary.length} = ${(rate * 100).toFixed(1)} %`,
      flagged.map((message) => `${message.text} → ${message.caught.join(", ")}`),
    );
    expect(rate).toBeLessThanOrEqual(0.02);
  });
});
