import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test } from "@playwright/test";
import { hostUrl } from "./support/env";

// ARCHITECTURE.md 'tests': axe for accessibility. axe-core is evaluated in
// the page over the DevTools protocol, which the page's CSP does not govern.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

const targets = [
  hostUrl(null, "/home"),
  hostUrl(null, "/register"),
  hostUrl(null, "/login"),
  hostUrl(null, "/forgotpassword"),
  hostUrl(null, "/settings/about"),
  hostUrl("www", "/home"),
  hostUrl(null, "/this/does/not/exist"),
];

for (const url of targets) {
  test(`no serious accessibility violations on ${url}`, async ({ page }) => {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: unknown[] }> } })
        .axe;
      const result = await axe.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } });
      return result.violations;
    });
    const serious = (violations as AxeViolation[])
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact,
        help: violation.help,
        where: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
      }));
    expect(serious).toEqual([]);
  });
}
