import { expect, type Page, test } from "@playwright/test";
import { hostUrl } from "./support/env";
import { hydrated, toast } from "./support/page";
import { writePhoto } from "./support/photos";
import { createStudent } from "./support/student";

// Decision 0097: the feed, the post page with its thread, saves, shares and deletes, driven
// through the screens as students use them. One test per stage (decision 0155), each making its
// own student and post through the fixture (decision 0155), on a campus no other spec reads
// (SMU), each finding its post by its own words.

const CAMPUS = "smu";
test.use({ baseURL: hostUrl(CAMPUS) });

const DESK = "adjustable height, barely used. ";
const MORE = "Comes with the cable tray and the original box, pick up near campus. ".repeat(3);

/** Words no other test's post carries. */
function unique(what: string): string {
  return `${what} ${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

/** The student's post, with a long text and `photos` photos, made through the fixture; its text and path. */
async function studentWithPost(
  page: Page,
  label: string,
  options: { photos?: number; thread?: string[] } = {},
) {
  const words = unique("Standing desk");
  const long = `${words}, ${DESK}${MORE}`.trim();
  const student = await createStudent(page.context(), {
    campus: CAMPUS,
    label,
    posts: [{ text: long, photos: options.photos ?? 0, thread: options.thread ?? [] }],
  });
  return { student, words, long, postPath: `/post/${student.postIds[0]}` };
}

test("post: the composer sends a post with two photos", async ({ page }, testInfo) => {
  const first = await writePhoto(testInfo.outputPath("desk.png"), { r: 30, g: 110, b: 190 }, 1200, 900);
  const second = await writePhoto(testInfo.outputPath("lamp.png"), { r: 200, g: 160, b: 40 }, 600, 900);
  await createStudent(page.context(), { campus: CAMPUS, label: "posts-owner" });
  const words = unique("Standing desk");

  // Compose with two photos (the composer: a modal on wide screens, or its page).
  await page.goto("/home");
  await hydrated(page);
  await page.getByText("What are you selling?").first().click();
  const composer = page.getByRole("form", { name: "Create Post" });
  await expect(composer).toBeVisible();
  await composer.getByRole("textbox", { name: "Post text" }).click();
  await page.keyboard.type(`${words}, ${DESK}`);
  await composer.locator('input[type="file"]').setInputFiles([first, second]);
  await expect(
    composer.getByRole("list", { name: "Chosen photos and videos" }).getByRole("listitem"),
  ).toHaveCount(2);
  await composer.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();
  await page.goto("/home");
  await expect(
    page.getByRole("article", { name: "Post by Jamie R." }).filter({ hasText: words }),
  ).toBeVisible();
});

test("feed card: cut at 200 characters with 'See more' / 'See less', its first photo; the category filter", async ({
  page,
}) => {
  const { words, long } = await studentWithPost(page, "posts-card", { photos: 2 });

  await page.goto("/home");
  await hydrated(page);
  const card = page.getByRole("article", { name: "Post by Jamie R." }).filter({ hasText: words });
  await expect(card).toBeVisible();
  await expect(card).not.toContainText(long);
  await card.getByRole("button", { name: "See more" }).click();
  await expect(card).toContainText(long);
  await card.getByRole("button", { name: "See less" }).click();
  await expect(card.getByRole("button", { name: "See more" })).toBeVisible();
  await expect(card.getByRole("img", { name: "Photo 1 of 2 from Jamie R." })).toBeVisible();
  await expect(card.getByText("+1")).toBeVisible();

  // The category filter: another category → 'Category switched', the address carries it, the post is not in it.
  await page.locator("summary").filter({ hasText: "All categories" }).click();
  await page
    .getByRole("list", { name: "Categories" })
    .getByRole("link", { name: "3D Printers & Supplies" })
    .click();
  await expect(toast(page, "Category switched")).toBeVisible();
  await expect(page).toHaveURL(/\/home\?category=3d\+printers\+%26\+supplies$/);
  await expect(page.getByRole("list", { name: "Categories" })).toBeHidden();
  await expect(page.getByText("Nothing to see here - yet")).toBeVisible();

  // The card's Comment link leads to the post page.
  await page.goto("/home");
  await hydrated(page);
  await card.getByRole("link", { name: "Comment" }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
});

test("post page: the whole text, both photos, the timestamp, the empty thread, the link-preview tags", async ({
  page,
}) => {
  const { long, postPath } = await studentWithPost(page, "posts-page", { photos: 2 });
  await page.goto(postPath);
  await hydrated(page);
  const post = page.getByRole("article", { name: "Post by Jamie R." });
  await expect(post).toContainText(long);
  await expect(post.getByRole("img", { name: "Photo 1 of 2 from Jamie R." })).toBeVisible();
  await expect(post.getByRole("img", { name: "Photo 2 of 2 from Jamie R." })).toBeVisible();
  await expect(post.locator("time").last()).toHaveText(/\d{1,2}:\d{2} [AP]M · [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(page.getByText("Be the first to comment")).toBeVisible();
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
    "content",
    "Jamie R. on SMU Buy / Sell",
  );
  // Decision 0110: absolute links stay on the campus host the student is on.
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
    "content",
    new RegExp(`^http://${CAMPUS}\\.localhost:\\d+/media-files/`),
  );
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
});

test("comment and reply: 'Create A Comment' focuses the box; a comment, then a reply to it", async ({
  page,
}) => {
  const { postPath } = await studentWithPost(page, "posts-comment");
  await page.goto(postPath);
  await hydrated(page);

  await page.getByRole("link", { name: "Create A Comment" }).click();
  const commentBox = page.getByRole("form", { name: "Write a comment" }).first();
  await expect(commentBox.getByRole("textbox", { name: "Comment text" })).toBeFocused();
  await page.keyboard.type("Is the desk still available?");
  await commentBox.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(toast(page, "Your reply was sent")).toBeVisible();
  const thread = page.getByRole("list", { name: "Comments" });
  const comment = thread.getByRole("article", { name: "Comment by Jamie R." }).filter({
    hasText: "Is the desk still available?",
  });
  await expect(comment).toBeVisible();
  await comment.getByRole("link", { name: "Reply" }).click();
  const replyBox = thread.getByRole("form", { name: "Write a comment" });
  await expect(replyBox.getByRole("textbox", { name: "Comment text" })).toBeFocused();
  await page.keyboard.type("Yes, until Friday.");
  await replyBox.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(toast(page, "Your reply was sent")).toBeVisible();
  const replies = page.getByRole("list", { name: "Replies to Jamie R." });
  await expect(replies.getByText("Yes, until Friday.")).toBeVisible();
  await expect(thread.getByRole("form", { name: "Write a comment" })).toHaveCount(0);
});

test("save and /saved: 'Post saved.', Saved!, the copied link, and /saved lists it", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { words, postPath } = await studentWithPost(page, "posts-save");
  await page.goto(postPath);
  await hydrated(page);
  const post = page.getByRole("article", { name: "Post by Jamie R." });

  // Save → 'Post saved.', the button reads Saved! and the count hides.
  await post.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(page, "Post saved.")).toBeVisible();
  await expect(post.getByRole("button", { name: "Saved!", exact: true })).toBeVisible();
  await expect(post.getByRole("link", { name: /saved this post/ })).toHaveCount(0);

  // Copy link: the banner for 2 s and 'Copied to clipboard' (okay, signed in).
  await post.getByRole("button", { name: "Share" }).click();
  await page.getByRole("menuitem", { name: "Copy link" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Link Copied! You can share this link with anyone." }),
  ).toBeVisible();
  await expect(toast(page, "Copied to clipboard")).toHaveAttribute("data-toast-type", "okay");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    new URL(postPath, page.url()).toString(),
  );
  await expect(page.getByText("Link Copied! You can share this link with anyone.")).toBeHidden({
    timeout: 4000,
  });

  // /saved lists it.
  await page.goto("/saved");
  await expect(page.getByRole("list", { name: "Saved posts" }).getByText(words)).toBeVisible();
  await expect(page.getByText("You've reached the end.")).toBeVisible();
});

test("delete: the author deletes a reply ('Comment Removed'), then the post ('Your post was deleted' → /home)", async ({
  page,
}) => {
  const { words, postPath } = await studentWithPost(page, "posts-delete", {
    thread: ["Is the desk still available?", "Yes, until Friday."],
  });
  await page.goto(postPath);
  await hydrated(page);
  await page
    .getByRole("list", { name: "Replies to Jamie R." })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page.getByRole("dialog", { name: "Delete Comment?" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Comment Removed")).toBeVisible();
  await expect(page.getByText("Yes, until Friday.")).toHaveCount(0);

  await page.getByRole("button", { name: "More options for this post" }).click();
  await expect(page.getByRole("menuitem", { name: "Send Message" })).toHaveCount(0);
  await expect(page.getByRole("menuitem", { name: "Boost Post" })).toBeVisible();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Post?" });
  await expect(dialog).toContainText(
    "This can't be undone and it will be removed from your profile, the main feed, and from any search results.",
  );
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(toast(page, "Your post was deleted")).toHaveAttribute("data-toast-type", "success");
  await expect(page.getByText(words)).toHaveCount(0);

  const gone = await page.goto(postPath);
  expect(gone?.status()).toBe(404);
  await expect(page.getByText("Sorry, that post has been deleted.")).toBeVisible();
});

test("others cannot delete: another student sees no Delete on the post or its comments", async ({
  page,
  browser,
}) => {
  const { words, postPath } = await studentWithPost(page, "posts-author", {
    thread: ["Is the desk still available?", "Yes, until Friday."],
  });
  const context = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  const other = await context.newPage();
  await createStudent(context, { campus: CAMPUS, label: "posts-other", fullName: "Robin Other" });
  await other.goto(postPath);
  await hydrated(other);
  await expect(other.getByRole("article", { name: "Post by Jamie R." })).toContainText(words);
  await other.getByRole("button", { name: "More options for this post" }).click();
  await expect(other.getByRole("menuitem", { name: "Copy link" })).toBeVisible();
  await expect(other.getByRole("menuitem", { name: "Send Message" })).toBeVisible();
  await expect(other.getByRole("menuitem", { name: "Delete" })).toHaveCount(0);
  await expect(other.getByRole("menuitem", { name: "Boost Post" })).toHaveCount(0);
  await other.keyboard.press("Escape");
  await expect(other.getByRole("list", { name: "Comments" }).getByText("Yes, until Friday.")).toBeVisible();
  await expect(
    other.getByRole("list", { name: "Comments" }).getByRole("button", { name: "Delete" }),
  ).toHaveCount(0);
  await context.close();
});

test("a visitor: saving opens the sign-in modal, ?redirect=true opens the share dialog, links are copied", async ({
  browser,
}) => {
  const authorContext = await browser.newContext();
  const words = unique("Bike helmet");
  const author = await createStudent(authorContext, {
    campus: CAMPUS,
    label: "posts-author",
    posts: [{ text: words }],
  });
  await authorContext.close();
  const postPath = `/post/${author.postIds[0]}`;

  const context = await browser.newContext({ baseURL: hostUrl(CAMPUS) });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const visitor = await context.newPage();
  await visitor.goto("/home");
  await hydrated(visitor);
  const card = visitor.getByRole("article").filter({ hasText: words });
  await card.getByRole("button", { name: "Save", exact: true }).click();
  const signIn = visitor.getByRole("dialog", { name: "Log In / Sign Up" });
  await expect(signIn).toContainText("Log in or sign up to save posts.");
  await visitor.keyboard.press("Escape");

  await card.getByRole("button", { name: "Share" }).click();
  await visitor.getByRole("menuitem", { name: "Copy link" }).click();
  // spec 2 §8: 'Copied to clipboard' is a success toast for visitors.
  await expect(toast(visitor, "Copied to clipboard")).toHaveAttribute("data-toast-type", "success");

  await visitor.goto(`${postPath}?redirect=true`);
  await expect(visitor.getByRole("dialog", { name: "Share" })).toBeVisible();
  await expect(visitor).toHaveURL((url) => url.pathname === postPath && url.search === "");
  await context.close();
});
