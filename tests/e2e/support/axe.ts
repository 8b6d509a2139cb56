import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { hydrated } from "./page";

// docs/architecture.md 'tests': axe for accessibility. axe-core is evaluated in the page over the
// DevTools protocol, which the page's CSP does not govern.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string }[];
}

/**
 * The serious and critical violations on the page as the student sees it once
 * its script runs (`rule: help @ where, …`), for `expect(…).toEqual([])`.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await hydrated(page);
  // A dialog fading in has, for a moment, text at part opacity: axe would measure its contrast
  // mid-way. Check the screen as it settles (a spinner's endless animation aside).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    // Decision 0475: every rule axe runs by default (WCAG 2.0 to 2.2 A and AA, and best practice).
    const result = await axe.run();
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} @ ${violation.nodes
          .slice(0, 5)
          // The element's opening tag too: Tailwind's class selectors alone rarely say which it is.
          .map(
            (node) =>
              `${node.target.join(" ")} ${node.html.slice(0, node.html.indexOf(">") + 1).slice(0, 160)}`,
          )
          .join(", ")}`,
    );
}

/** One screen to check: where to go, and what to do there first (open a modal, wait for data). */
export interface AxeStop {
  /** A path on the page's base URL, or a full URL (another host). */
  url: string;
  /** The name in the report; the url unless given (two stops on one url). */
  name?: string;
  /** Run once the page has hydrated, before axe: bring the screen to the state to check. */
  prepare?: (page: Page) => Promise<void>;
}

/**
 * Decision 0475: visits each stop in turn in one page (one browser context, one signed-in student or
 * none) and returns the serious and critical violations of those that have any, by name — every
 * screen's findings in one report, for `expect(…).toEqual({})`, rather than the first screen's only.
 */
export async function seriousAxeViolationsOf(
  page: Page,
  stops: AxeStop[],
): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const stop of stops) {
    await page.goto(stop.url);
    await hydrated(page);
    await stop.prepare?.(page);
    const violations = await seriousAxeViolations(page);
    if (violations.length > 0) found[stop.name ?? stop.url] = violations;
  }
  return found;
}

/**
 * The violations of the named axe rules only, whatever their tags or impact (`rule @ where, …`):
 * for a test that proves one fix (decision 0475), e.g. page-has-heading-one, which axe rates moderate
 * and seriousAxeViolations therefore lets pass.
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
