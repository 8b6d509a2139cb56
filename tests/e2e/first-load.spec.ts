import { expect, test } from "@playwright/test";
import { hydrated } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0370: parts of /home the server renders in full and the browser hydrates
// from chunks of their own (hydratedLater). Until a part's chunk is there, the server's HTML of it
// stays on the page, and what happens meanwhile (the live stream connecting) must not make React
// throw it away and draw it again.

test("a signed-in /home keeps its server-rendered parts while their code is still on its way", async ({
  page,
}) => {
  const student = await createStudent(page.context(), {
    label: "first-load",
    posts: [{ text: "Desk lamp, barely used, pick up by the library." }],
  });

  // The scripts the document preloads run; every other chunk but the live stream's client waits.
  const html = await (await page.context().request.get("/home")).text();
  const preloaded = new Set([...html.matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]));
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/assets/*.js", async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (!preloaded.has(path) && !path.includes("/realtime-client-")) await held;
    await route.continue();
  });
  await page.addInitScript(() => {
    const removed: string[] = [];
    Object.assign(window, { removedParts: removed });
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.removedNodes) {
          if (node instanceof Element && node.matches("search, nav, aside, article footer, header button")) {
            removed.push(node.outerHTML.slice(0, 60));
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });

  await page.goto("/home");
  // The live stream is up (its client set the page's context) while the parts still wait; the page
  // is not yet marked hydrated, since the parts are not.
  await expect(page.locator("html[data-realtime-role]")).toBeAttached();
  await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
  const search = page.getByRole("combobox", { name: "Search OU Buy / Sell" });
  const menu = page.getByRole("button", {
    name: `Account menu for ${student.firstName} ${student.lastName}`,
  });
  const post = page.getByRole("article").filter({ hasText: "Desk lamp" });
  await expect(search).toBeVisible();
  await expect(menu).toBeVisible();
  await expect(post.getByRole("link", { name: /^Comment/ })).toBeVisible();

  release();
  // Hydrated, and marked so once every part is: the menu opens, by its chunk's script.
  await hydrated(page);
  await menu.click();
  await expect(page.getByRole("menu")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { removedParts: string[] }).removedParts)).toEqual(
    [],
  );
});
