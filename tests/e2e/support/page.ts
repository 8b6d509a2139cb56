import { expect, type Page } from "@playwright/test";

/**
 * Waits until React has hydrated the page: app/root.tsx marks `<html data-hydrated="true">`
 * in the outermost effect, which runs after every component's. From then on each control
 * answers to the page's script (disabled-until-valid buttons, client-side validation,
 * modals, client-side navigation) rather than to its plain-HTML fallback. Call it after a
 * full navigation (page.goto, a plain form post) whenever the next step depends on React;
 * a client-side navigation keeps the mark, and needs no wait.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: "attached" });
}

/** A toast by its text (spec 1 §8); its kind is in `data-toast-type`. */
export function toast(page: Page, message: string) {
  return page.locator("[data-toast-type]").filter({ hasText: message });
}

/**
 * Loads a page with its scripts held back (styles pass) and runs `beforeScripts` on the
 * server-rendered form, as a student who types before the script arrives; then lets the
 * scripts in and waits for hydration. `path` is opened up to its first response only:
 * the load event waits for the held scripts.
 */
export async function loadWithScriptsHeld(
  page: Page,
  path: string,
  beforeScripts: () => Promise<void>,
): Promise<void> {
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route("**/assets/**", async (route) => {
    if (route.request().resourceType() === "script") await scriptsHeld;
    await route.continue();
  });
  try {
    await page.goto(path, { waitUntil: "commit" });
    await beforeScripts();
    if (await page.evaluate(() => document.documentElement.dataset.hydrated)) {
      throw new Error(`${path} hydrated before the scripts were let in`);
    }
  } finally {
    releaseScripts();
  }
  await hydrated(page);
  await page.unrouteAll();
}

/**
 * Counts React's commits from the next document on, through the hook React DevTools uses
 * (defined before React loads, so React reports every commit to it). See `commitsWhileIdle`.
 */
export async function countReactCommits(page: Page): Promise<void> {
  await page.addInitScript(() => {
    let commits = 0;
    Object.assign(window, {
      reactCommits: () => commits,
      __REACT_DEVTOOLS_GLOBAL_HOOK__: {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => {},
        onCommitFiberRoot: () => {
          commits++;
        },
        onCommitFiberUnmount: () => {},
        onPostCommitFiberRoot: () => {},
      },
    });
  });
}

/**
 * How many times React commits in half a second while nobody does anything (after
 * `countReactCommits`): none on a settled page. A component that sets state after every
 * render re-renders without end, and a navigation started then waits behind it (seen: the
 * address moved on while the old screen stayed for 10 s and more).
 */
export async function commitsWhileIdle(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const { reactCommits } = window as unknown as { reactCommits(): number };
    const before = reactCommits();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return reactCommits() - before;
  });
}

/**
 * Records, from the next document on, every moment a button reading `name` gets the `disabled`
 * attribute (read them with `disabledMoments`). A disabled button drops the click that lands on
 * it: a form filled before hydration must never disable its button on the way.
 */
export async function watchDisabled(page: Page, name: string): Promise<void> {
  await page.addInitScript((buttonName) => {
    const moments: number[] = [];
    Object.assign(window, { disabledMoments: moments });
    const note = (element: Element) => {
      if (
        element instanceof HTMLButtonElement &&
        element.disabled &&
        element.textContent?.trim() === buttonName
      ) {
        moments.push(Math.round(performance.now()));
      }
    };
    new MutationObserver((records) => {
      for (const record of records) {
        // oldValue null: the attribute was added (not removed or changed).
        if (record.type === "attributes" && record.oldValue === null) note(record.target as Element);
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          note(node);
          for (const button of node.querySelectorAll("button")) note(button);
        }
      }
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["disabled"],
      attributeOldValue: true,
    });
  }, name);
}

/** When (ms into the document) the watched button got disabled; see `watchDisabled`. */
export async function disabledMoments(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { disabledMoments: number[] }).disabledMoments);
}

/** A comment through the post page, as a student writes one. */
export async function commentOnPost(page: Page, postId: string, text: string): Promise<void> {
  await page.goto(`/post/${postId}`);
  await hydrated(page);
  await page.getByRole("link", { name: "Create A Comment" }).click();
  await page.keyboard.type(text);
  await page
    .getByRole("form", { name: "Write a comment" })
    .first()
    .getByRole("button", { name: "Reply", exact: true })
    .click();
  await expect(toast(page, "Your reply was sent")).toBeVisible();
}
