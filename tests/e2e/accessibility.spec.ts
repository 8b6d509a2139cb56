import { type Browser, expect, type Page, test } from "@playwright/test";
import type { TestStudent } from "../../server/dev/test-student";
import { type AxeStop, seriousAxeViolationsOf } from "./support/axe";
import { hostUrl } from "./support/env";
import { commentOnPost, hydrated, toast } from "./support/page";
import { createStudent } from "./support/student";

// docs/architecture.md 'tests': axe for accessibility, on each page as it is once its script runs.
// Decision 0475: the main pages, signed out and signed in, at 390 and 1280 px; any serious or critical
// violation fails. One context per test visits every page in turn (seriousAxeViolationsOf), so
// the whole check is four tests. On Texas A&M's campus, which no other spec reads.

const CAMPUS = "tamu";
test.use({ baseURL: hostUrl(CAMPUS) });

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** What the pages show: two students, their posts, a chat, a comment. */
interface World {
  /** The signed-in student of the signed-in pages. */
  viewer: TestStudent;
  /** Another student: their post, their profile, the other side of the chat. */
  seller: TestStudent;
  /** A word of the seller's posts, to search for. */
  word: string;
  chatPath: string;
}

async function makeWorld(browser: Browser): Promise<World> {
  const word = `axecheck${Date.now().toString(36)}`;
  // Wide: the comment is written in the post page's own form (commentOnPost).
  const options = { baseURL: hostUrl(CAMPUS), viewport: { width: 1280, height: 800 } };
  const viewerContext = await browser.newContext(options);
  const sellerContext = await browser.newContext(options);
  try {
    const seller = await createStudent(sellerContext, {
      campus: CAMPUS,
      label: "axe-seller",
      fullName: "Morgan Lee",
      posts: [
        { text: `Desk lamp ${word}, barely used`, photos: 2, category: "furniture" },
        { text: `Calculus textbook ${word}, some notes in the margins`, thread: ["Still available."] },
      ],
    });
    const viewer = await createStudent(viewerContext, {
      campus: CAMPUS,
      label: "axe-viewer",
      posts: [{ text: "Mini fridge, cold and quiet", photos: 1 }],
    });
    // A chat with a message each way (spec 2 §2 Messages), and a comment on the viewer's post,
    // which gives the viewer a notification.
    const viewerPage = await viewerContext.newPage();
    await viewerPage.goto(`/messages/new?to=${seller.username}`);
    await hydrated(viewerPage);
    await viewerPage.getByRole("textbox", { name: "Message" }).fill("Is the lamp still available?");
    await viewerPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(toast(viewerPage, "New Conversation Started")).toBeVisible();
    await expect(viewerPage).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const chatPath = new URL(viewerPage.url()).pathname;
    const sellerPage = await sellerContext.newPage();
    await sellerPage.goto(chatPath);
    await hydrated(sellerPage);
    await sellerPage.getByRole("textbox", { name: "Message" }).fill("Yes, come by the library.");
    await sellerPage.getByRole("button", { name: "Send", exact: true }).click();
    await expect(
      sellerPage.getByRole("list", { name: "Messages" }).getByText("come by the library"),
    ).toBeVisible();
    await commentOnPost(sellerPage, viewer.postIds[0] ?? "", "Does it fit under a desk?");
    return { viewer, seller, word, chatPath };
  } finally {
    await viewerContext.close();
    await sellerContext.close();
  }
}

// The signed-out pages read one world, made once per worker. Each signed-in test makes its own:
// its pages mark the notification and the chat read, and the next test would see no unread badge.
let signedOutWorld: World | undefined;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(60_000);
  signedOutWorld = await makeWorld(browser);
});

/** Waits for a text the page shows once its data is there. */
function showing(text: string) {
  return async (page: Page) => {
    await expect(page.getByText(text).first()).toBeVisible();
  };
}

/** Clicks a control and waits for the dialog or menu it opens. */
function opening(control: (page: Page) => ReturnType<Page["getByRole"]>, opened: "dialog" | "menu") {
  return async (page: Page) => {
    await control(page).click();
    await expect(page.getByRole(opened).first()).toBeVisible();
  };
}

const shareMenu = opening((page) => page.getByRole("button", { name: "Share", exact: true }).first(), "menu");

function signedOutStops({ seller, word }: World): AxeStop[] {
  const [photoPost, textPost] = seller.postIds;
  return [
    // The generic host: its landing (feed of the generic instance) and Find Your School.
    { url: hostUrl("www", "/home") },
    { url: hostUrl("www", "/search_schools") },
    {
      url: hostUrl("www", "/search_schools?q=texas"),
      name: "Find Your School, a school chosen",
      prepare: opening((page) => page.getByRole("link", { name: /Texas A&M University/ }), "dialog"),
    },
    { url: hostUrl(null, "/home") },
    { url: "/home", prepare: showing(word) },
    {
      url: "/home",
      name: "/home with the sign-in menu open",
      prepare: opening((page) => page.getByRole("button", { name: "Log in or sign up" }), "menu"),
    },
    { url: "/media" },
    { url: `/media/${photoPost}` },
    { url: `/post/${textPost}`, prepare: showing(word) },
    { url: `/post/${textPost}`, name: "a post with the share menu open", prepare: shareMenu },
    { url: "/search" },
    { url: `/search?q=${word}`, prepare: showing(word) },
    { url: `/search?q=${word}&show=media` },
    { url: `/search?q=${word}&show=people` },
    { url: `/${seller.username}`, prepare: showing(`@${seller.username}`) },
    { url: "/user_registration" },
    { url: "/login" },
    { url: "/login?method=password" },
    { url: "/register" },
    { url: "/forgotpassword" },
    { url: "/search_schools" },
    { url: "/settings/about" },
    { url: "/this/does/not/exist" },
  ];
}

function signedInStops({ viewer, seller, word, chatPath }: World, width: number): AxeStop[] {
  const [ownPost] = viewer.postIds;
  const [photoPost, textPost] = seller.postIds;
  return [
    { url: "/home", prepare: showing(word) },
    {
      url: "/home",
      name: "/home with the composer open",
      // spec 1 §2 Shell: a modal on wide screens, /create/post on phones.
      prepare: async (page) => {
        await page
          .getByRole("navigation", { name: width < 768 ? "Tabs" : "Main" })
          .getByRole("link", { name: /^Create post$/i })
          .click();
        await expect(page.getByRole("textbox", { name: "Post text" })).toBeVisible();
      },
    },
    {
      url: "/home",
      name: "/home with the account menu open",
      prepare: opening((page) => page.getByRole("button", { name: /^Account menu for/ }), "menu"),
    },
    { url: `/post/${ownPost}`, prepare: showing("Does it fit under a desk?") },
    {
      url: `/post/${ownPost}`,
      name: "one's own post with its menu open",
      prepare: opening(
        (page) => page.getByRole("button", { name: "More options for this post" }).first(),
        "menu",
      ),
    },
    { url: `/post/${textPost}`, prepare: showing(word) },
    { url: `/post/${textPost}`, name: "another's post with the share menu open", prepare: shareMenu },
    { url: `/post/${photoPost}/likes` },
    { url: "/media" },
    { url: `/media/${photoPost}` },
    { url: `/search?q=${word}`, prepare: showing(word) },
    { url: `/search?q=${word}&show=people` },
    { url: "/notifications", prepare: showing("commented on your post") },
    { url: "/messages" },
    {
      url: chatPath,
      prepare: async (page) => {
        await expect(
          page.getByRole("list", { name: "Messages" }).getByText("come by the library"),
        ).toBeVisible();
      },
    },
    { url: "/messages/new" },
    {
      url: "/messages",
      name: "/messages with New Message open",
      // spec 1 §2: a modal on wide screens, the page /messages/new on phones.
      prepare: async (page) => {
        await page.getByRole("link", { name: "New Message", exact: true }).click();
        await expect(page.getByRole("combobox").last()).toBeVisible();
      },
    },
    { url: "/saved" },
    { url: "/profile" },
    { url: `/${seller.username}`, prepare: showing(`@${seller.username}`) },
    { url: "/profile/set-up" },
    { url: "/profile/set-up?step=2" },
    { url: "/profile/set-up?step=3" },
    { url: "/logout" },
    { url: "/profile/edit" },
    { url: `/post/${ownPost}/boost` },
    { url: "/ads" },
    { url: "/settings" },
    { url: "/settings/account" },
    { url: "/settings/account/screen_name" },
    { url: "/settings/account/password" },
    { url: "/settings/account/email" },
    { url: "/settings/account/school_email" },
    { url: "/settings/account/graduation_year" },
    { url: "/settings/account/phone" },
    { url: "/settings/account/gender" },
    { url: "/settings/account/birth_date" },
    { url: "/settings/account/blocked" },
    { url: "/settings/payments" },
    { url: "/settings/notifications" },
    { url: "/settings/help" },
  ];
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("no serious accessibility violations on the main pages, signed out", async ({ page }) => {
      test.setTimeout(180_000);
      if (!signedOutWorld) throw new Error("beforeAll made no world");
      expect(await seriousAxeViolationsOf(page, signedOutStops(signedOutWorld))).toEqual({});
    });

    // Decision 0475: a student without a photo yet shows initials in the account menu's button; they
    // are drawn, not text, so the button's visible text stays within its name (label in name).
    test("no serious accessibility violations for a student without a photo", async ({ page }) => {
      await createStudent(page.context(), { campus: CAMPUS, profile: false });
      expect(await seriousAxeViolationsOf(page, [{ url: "/home" }, { url: "/settings" }])).toEqual({});
    });

    test("no serious accessibility violations on the main pages, signed in", async ({ browser, page }) => {
      test.setTimeout(240_000);
      const world = await makeWorld(browser);
      await page.context().addCookies([{ ...world.viewer.cookie, url: hostUrl(CAMPUS) }]);
      expect(await seriousAxeViolationsOf(page, signedInStops(world, viewport.width))).toEqual({});
    });
  });
}
