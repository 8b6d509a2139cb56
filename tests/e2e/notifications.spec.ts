import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, expect, type Page, test } from "@playwright/test";
import { type PushService, type PushServiceSubscription, startPushService } from "../support/push-service";
import { BASE_URL, CHROMIUM_ARGS, CHROMIUM_PATH, hostUrl } from "./support/env";
import { linkFrom, mailTo, waitForMail } from "./support/mailbox";
import { commentOnPost, hydrated } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0250: notifications in the app, by e-mail and by web push, and the installable app.

// The service worker is this spec's subject (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: "allow" });

async function newStudentPage(browser: Browser, request: Parameters<typeof createStudent>[1]) {
  const context = await browser.newContext();
  const student = await createStudent(context, request);
  const page = await context.newPage();
  return { context, student, page };
}

function notificationsLink(page: Page) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Notifications/ });
}

test("a comment by another student lights the owner's badge live; the list leads to the post and opening it clears the badge", async ({
  browser,
}) => {
  const owner = await newStudentPage(browser, {
    label: "notif-owner",
    posts: [{ text: "Desk lamp, barely used" }],
  });
  const buyer = await newStudentPage(browser, { label: "notif-buyer", fullName: "Ben Buyer" });
  const postId = owner.student.postIds[0] ?? "";

  await owner.page.goto("/home");
  await hydrated(owner.page);
  await expect(notificationsLink(owner.page)).toHaveAccessibleName("Notifications");
  // The owner's live stream is open before the comment is written (decision 0212).
  await expect(owner.page.locator("html")).toHaveAttribute("data-realtime-role", "leader");
  // Live means this document: no navigation and no reload until the badge shows.
  const navigations: string[] = [];
  owner.page.on("framenavigated", (frame) => {
    if (frame === owner.page.mainFrame()) navigations.push(frame.url());
  });
  await owner.page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });

  await commentOnPost(buyer.page, postId, "Is the lamp still available?");

  // The realtime 'notification' event revalidates the shell's loaders (app/lib/realtime.tsx).
  await expect(notificationsLink(owner.page)).toHaveAccessibleName(/1 unread/);
  expect(navigations).toEqual([]);
  expect(
    await owner.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
  ).toBe(true);

  await notificationsLink(owner.page).click();
  await expect(owner.page).toHaveURL(/\/notifications$/);
  const item = owner.page
    .getByRole("list", { name: "Notifications" })
    .getByRole("link", { name: /Ben B\. commented on your post/ });
  await expect(item).toHaveAttribute("data-unread", "true");
  // spec 2 §4: the unread count resets when the page opens.
  await expect(notificationsLink(owner.page)).toHaveAccessibleName("Notifications");

  await item.click();
  await expect(owner.page).toHaveURL(new RegExp(`/post/${postId}$`));
  await expect(owner.page.getByText("Is the lamp still available?")).toBeVisible();

  // Listed once, read from then on.
  await owner.page.goto("/notifications");
  await expect(
    owner.page.getByRole("list", { name: "Notifications" }).getByRole("link", { name: /Ben B\. commented/ }),
  ).not.toHaveAttribute("data-unread", "true");
  await owner.context.close();
  await buyer.context.close();
});

test("'Load more' in the list: a live notification starts it again from its first page, and every older one still comes once", async ({
  browser,
}) => {
  // 17 posts: 16 saved before the list opens (a page of 15 and one more), the last saved while it is open.
  const owner = await newStudentPage(browser, {
    label: "notif-pages",
    posts: Array.from({ length: 17 }, (_, index) => ({ text: `Item number ${index + 1} for sale` })),
  });
  const saver = await newStudentPage(browser, { label: "notif-saver", fullName: "Sam Saver" });
  // Saves on different posts are different lines (one line groups the saves of one post).
  const save = async (postId: string) => {
    const answer = await saver.context.request.post(`/post/${postId}`, {
      form: { intent: "toggle-save", returnTo: "/home" },
      maxRedirects: 0,
    });
    expect(answer.status(), `save of ${postId}`).toBeLessThan(400);
  };
  const [lastPostId, ...earlierPostIds] = [...owner.student.postIds].reverse();
  for (const postId of earlierPostIds) await save(postId);

  const { page } = owner;
  await page.goto("/notifications");
  await hydrated(page);
  await expect(page.locator("html")).toHaveAttribute("data-realtime-role", "leader");
  const lines = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
  const loadMore = page.getByRole("link", { name: "Load more" });
  await expect(lines).toHaveCount(15);
  await loadMore.click();
  await expect(lines).toHaveCount(16);
  await expect(loadMore).toHaveCount(0);

  // The live event reloads the page's data and the list starts again from a fresh first page.
  // React Router also loads the second page's address again; that answer must not be appended
  // (it would skip the line between the two pages, and leave no 'Load more' to reach it).
  await save(lastPostId ?? "");
  await expect(lines.first().getByRole("link")).toHaveAttribute("href", `/post/${lastPostId}`);
  await expect(lines).toHaveCount(15);
  await loadMore.click();
  await expect(loadMore).toHaveCount(0);
  await expect(lines).toHaveCount(17);
  const hrefs = await lines
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(new Set(hrefs)).toEqual(new Set(owner.student.postIds.map((id) => `/post/${id}`)));
  await owner.context.close();
  await saver.context.close();
});

test("a notification e-mail arrives once, with one-click unsubscribe headers, and its link turns e-mails off", async ({
  browser,
}) => {
  const owner = await newStudentPage(browser, { label: "notif-mail", posts: [{ text: "Mini fridge" }] });
  const buyer = await newStudentPage(browser, { label: "notif-mailer", fullName: "Cora Comment" });
  const postId = owner.student.postIds[0] ?? "";

  await commentOnPost(buyer.page, postId, "Does the fridge still work?");
  const isNotification = (mail: { subject: string }) => mail.subject === "Cora C. commented on your post";
  const mail = await waitForMail(owner.student.email, isNotification);
  expect(mail.text).toContain(`/post/${postId}`);
  // RFC 8058: a mail client's one-click button POSTs to the List-Unsubscribe address.
  expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const oneClick = /^<(.+)>$/.exec(mail.headers["list-unsubscribe"] ?? "")?.[1] ?? "";
  expect(oneClick).toContain("/notifications/unsubscribe?token=");

  // The visible link opens a page that asks first (link scanners follow links; nothing changes on GET).
  const link = linkFrom(mail, "/notifications/unsubscribe");
  await owner.page.goto(link);
  await hydrated(owner.page);
  await expect(owner.page.getByRole("heading", { name: "Turn off notification e-mails?" })).toBeVisible();
  await owner.page.goto("/settings/notifications");
  await expect(owner.page.getByRole("checkbox", { name: /Email notifications/ })).toBeChecked();

  await owner.page.goto(link);
  await hydrated(owner.page);
  await owner.page.getByRole("button", { name: "Turn Off E-mails" }).click();
  await expect(owner.page.getByRole("status")).toHaveText("You won't get notification e-mails any more.");
  await owner.page.goto("/settings/notifications");
  await expect(owner.page.getByRole("checkbox", { name: /Email notifications/ })).not.toBeChecked();

  // Once: the batch of the window was one e-mail, and nothing else was sent for it.
  expect((await mailTo(owner.student.email)).filter(isNotification)).toHaveLength(1);
  await owner.context.close();
  await buyer.context.close();
});

test("the one-click POST of RFC 8058 turns e-mails off without a session", async ({ browser }) => {
  const owner = await newStudentPage(browser, { label: "notif-oneclick", posts: [{ text: "Bike lock" }] });
  const buyer = await newStudentPage(browser, { label: "notif-oneclicker", fullName: "Dan Doe" });
  await commentOnPost(buyer.page, owner.student.postIds[0] ?? "", "Still for sale?");
  const mail = await waitForMail(owner.student.email, (received) => received.subject.startsWith("Dan D."));
  const oneClick = /^<(.+)>$/.exec(mail.headers["list-unsubscribe"] ?? "")?.[1] ?? "";
  const response = await fetch(oneClick, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(response.status).toBe(200);
  const forged = await fetch(oneClick.replace(/token=[^&]+/, "token=someone.forged"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(forged.status).toBe(400);
  await owner.page.goto("/settings/notifications");
  await expect(owner.page.getByRole("checkbox", { name: /Email notifications/ })).not.toBeChecked();
  await owner.context.close();
  await buyer.context.close();
});

test.describe("web push and the installable app", () => {
  let push: PushService;
  test.beforeAll(async () => {
    push = await startPushService();
  });
  test.afterAll(async () => {
    await push?.close();
  });

  /**
   * A real push subscription needs the browser vendor's push service, which a test cannot reach:
   * the page's PushManager hands out a subscription of the local push service instead (the
   * research's recipe). Everything else is real: the service worker, the permission, the app's
   * VAPID signature and encryption (checked by web-push-testing), and the worker's notification.
   */
  async function stubPushManager(context: BrowserContext, subscription: PushServiceSubscription) {
    await context.addInitScript((json) => {
      let current: PushSubscription | null = null;
      const make = () =>
        ({
          endpoint: json.endpoint,
          toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
          unsubscribe: async () => {
            current = null;
            return true;
          },
        }) as unknown as PushSubscription;
      PushManager.prototype.getSubscription = async () => current;
      PushManager.prototype.subscribe = async () => {
        current = make();
        return current;
      };
    }, subscription);
  }

  test("a push service the app does not post to is refused with its words, and push stays off (decision 0460)", async ({
    browser,
  }) => {
    const owner = await newStudentPage(browser, { label: "notif-push-refused" });
    await owner.context.grantPermissions(["notifications"], { origin: BASE_URL });
    // The browser names an address the server must not post to: the cloud metadata address.
    await stubPushManager(owner.context, {
      endpoint: "http://169.254.169.254/latest/meta-data/",
      keys: { p256dh: "BAAA", auth: "AAAA" },
      clientHash: "",
    });
    await owner.page.goto("/settings/notifications");
    await hydrated(owner.page);
    await owner.page.getByRole("button", { name: "Turn On Push Notifications" }).click();
    await expect(owner.page.getByRole("alert")).toHaveText("This browser's push service is not supported.");
    await expect(owner.page.getByText("Push notifications are off for this browser.")).toBeVisible();
    await expect(owner.page.getByRole("button", { name: "Turn On Push Notifications" })).toBeVisible();
    await owner.context.close();
  });

  test("push is turned on in settings, sent by the app through the push service, and shown by the service worker", async ({
    browser,
  }) => {
    const owner = await newStudentPage(browser, { label: "notif-push", posts: [{ text: "Textbooks" }] });
    const buyer = await newStudentPage(browser, { label: "notif-pusher", fullName: "Eve Early" });
    await owner.context.grantPermissions(["notifications"], { origin: BASE_URL });

    await owner.page.goto("/settings/notifications");
    await hydrated(owner.page);
    const vapidKey =
      (await owner.page.locator("[data-vapid-public-key]").getAttribute("data-vapid-public-key")) ?? "";
    expect(vapidKey).not.toBe("");
    const subscription = await push.subscribe(vapidKey);
    await stubPushManager(owner.context, subscription);
    await owner.page.reload();
    await hydrated(owner.page);

    // Never on load: the button asks.
    await expect(owner.page.getByText("Push notifications are off for this browser.")).toBeVisible();
    await owner.page.getByRole("button", { name: "Turn On Push Notifications" }).click();
    await expect(owner.page.getByText("Push notifications are on for this browser.")).toBeVisible();

    // Push is for when the reader is away (decisions 0252, 0331): with no page of theirs open, so
    // no live stream (a second after it closed), the app pushes.
    await owner.page.goto("about:blank");
    const postId = owner.student.postIds[0] ?? "";
    await commentOnPost(buyer.page, postId, "Which edition are they?");

    // The app signed and encrypted it; the push service verified and decrypted it.
    await expect.poll(() => push.messages(subscription.clientHash), { timeout: 15_000 }).toHaveLength(1);
    await owner.page.goto("/settings/notifications");
    await hydrated(owner.page);
    const [payload] = await push.messages(subscription.clientHash);
    expect(JSON.parse(payload ?? "{}")).toMatchObject({
      body: "Eve E. commented on your post",
      url: `/post/${postId}`,
    });

    // The push service hands it to the browser: delivered to the service worker through DevTools,
    // once its worker is active (a message for a registration still installing is dropped), and
    // again while none is shown, as a push service retries; the payload's tag makes one notification.
    const cdp = await owner.context.newCDPSession(owner.page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
        const active = versions.find((version) => version.status === "activated");
        if (active) resolve(active.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const activeRegistration = await registrationId;
    await expect
      .poll(async () => {
        const shown = await owner.page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          const notifications = await registration.getNotifications();
          return notifications.map((notification) => ({
            title: notification.title,
            body: notification.body,
            url: (notification.data as { url?: string } | null)?.url,
          }));
        });
        if (shown.length === 0)
          await cdp.send("ServiceWorker.deliverPushMessage", {
            origin: BASE_URL,
            registrationId: activeRegistration,
            data: payload ?? "",
          });
        return shown;
      })
      .toEqual([{ title: "Campus Buy Sell", body: "Eve E. commented on your post", url: `/post/${postId}` }]);
    await owner.context.close();
    await buyer.context.close();
  });

  test("the manifest names the campus and the app passes Chromium's installability check", async () => {
    // Chromium never installs from an incognito profile, which every Playwright context is
    // ('in-incognito'): this check runs in a profile of its own on disk.
    const profile = mkdtempSync(path.join(tmpdir(), "cbs-install-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      baseURL: BASE_URL,
    });
    try {
      const page = await context.newPage();
      const manifest = await (await fetch(`${BASE_URL}/manifest.webmanifest`)).json();
      expect(manifest).toMatchObject({
        name: "OU Buy / Sell",
        display: "standalone",
        start_url: "/home",
        theme_color: "#b91c1c",
      });
      for (const icon of manifest.icons as { src: string; sizes: string }[]) {
        const response = await fetch(`${BASE_URL}${icon.src}`);
        expect(response.headers.get("content-type")).toBe("image/png");
      }
      // Each campus's own name: its host (*.localhost) is resolved by the browser.
      const ut = await page.goto(hostUrl("ut", "/manifest.webmanifest"));
      expect((await ut?.json())?.name).toBe("UT Buy / Sell");

      await page.goto("/home");
      await hydrated(page);
      await page.evaluate(() => navigator.serviceWorker.ready);
      const cdp = await context.newCDPSession(page);
      await expect
        .poll(async () => (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors, {
          timeout: 10_000,
        })
        .toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
