import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { hydrated } from "./page";

// ARCHITECTURE.md 'tests': axe for accessibility. axe-core is evaluated in the page over the
// DevTools protocol, which the page's CSP does not govern.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * The serious and critical WCAG 2.1 AA violations on the page as the student sees it once
 * its script runs (`rule: help @ where, …`), for `expect(…).toEqual([])`.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await hydrated(page);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } });
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} @ ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(" "))
          .join(", ")}`,
    );
}

/**
 * The violations of the named axe rules only, whatever their tags or impact (`rule @ where, …`):
 * for a test that proves one fix (issue 27), e.g. label-content-name-mismatch (WCAG 2.1 A) or
 * page-has-heading-one (best practice), which the tag set above leaves out.
 */
export async function axeRuleViolations(page: Page, rules: readonly string[]): Promise<string[]> {
  await hydrated(page);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (ids) => {
    const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run({ runOnly: { type: "rule", values: ids } });
    return result.violations;
  }, rules);
  return (violations as AxeViolation[]).map(
    (violation) =>
      `${violation.id}: ${violation.help} @ ${violation.nodes
        .slice(0, 5)
        .map((node) => node.target.join(" "))
        .join(", ")}`,
  );
}
