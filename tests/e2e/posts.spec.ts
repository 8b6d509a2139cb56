import { type Browser, expect, type Page, test } from "@playwright/test";
import { hydrated, toast } from "./support/page";
import { writePhoto } from "./support/photos";
import { readyStudent, signUp } from "./support/student";

// Issue 4 §2–§4: the feed, the post page with its thread, saves, shares and deletes,
// driven through the screens as students use them (on OU, the host localhost serves).

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test("post → feed → post page → comment → reply → save → /saved → delete; others cannot delete", async ({
  page,
  browser,
  context,
}, testInfo) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const avatar = await writePhoto(testInfo.outputPath("avatar.png"), { r: 180, g: 40, b: 40 }, 400, 400);
  const first = await writePhoto(testInfo.outputPath("desk.png"), { r: 30, g: 110, b: 190 }, 1200, 900);
  const second = await writePhoto(testInfo.outputPath("lamp.png"), { r: 200, g: 160, b: 40 }, 600, 900);

  await readyStudent(page, "posts-owner", avatar);
  const words = `Standing desk ${Date.now()}`;
  const long = `${words}, adjustable height, barely used. ${"Comes with the cable tray and the original box, pick up near campus. ".repeat(3)}`;

  // Compose with two photos (the composer: a modal on wide screens, or its page).
  await page.goto("/home");
  await hydrated(page);
  await page.getByText("What are you selling?").first().click();
  const composer = page.getByRole("form", { name: "Create Post" });
  await expect(composer).toBeVisible();
  await composer.getByRole("textbox", { name: "Post text" }).click();
  await page.keyboard.type(long);
  await composer.locator('input[type="file"]').setInputFiles([first, second]);
  await expect(
    composer.getByRole("list", { name: "Chosen photos and videos" }).getByRole("listitem"),
  ).toHaveCount(2);
  await composer.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(page, "Posted! Your post was sent.")).toBeVisible();

  // The feed: the card, cut at 200 characters with 'See more' / 'See less', and its first photo.
  await page.goto("/home");
  await hydrated(page);
  const card = page.getByRole("article", { name: "Post by Jamie R." }).filter({ hasText: words });
  await expect(card).toBeVisible();
  await expect(card).not.toContainText(long.trim());
  await card.getByRole("button", { name: "See more" }).click();
  await expect(card).toContainText(long.trim());
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
  await page.goto("/home");
  await hydrated(page);

  // The post page: the whole text, both photos, the timestamp, the empty thread.
  await card.getByRole("link", { name: "Comment" }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  const postPath = new URL(page.url()).pathname;
  const post = page.getByRole("article", { name: "Post by Jamie R." });
  await expect(post).toContainText(long.trim());
  await expect(post.getByRole("img", { name: "Photo 1 of 2 from Jamie R." })).toBeVisible();
  await expect(post.getByRole("img", { name: "Photo 2 of 2 from Jamie R." })).toBeVisible();
  await expect(post.locator("time").last()).toHaveText(/\d{1,2}:\d{2} [AP]M · [A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(page.getByText("Be the first to comment")).toBeVisible();
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
    "content",
    "Jamie R. on OU Buy / Sell",
  );
  // Decision 0110: absolute links stay on the campus host the student is on (localhost serves OU).
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
    "content",
    /^http:\/\/localhost:\d+\/media-files\//,
  );
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");

  // 'Create A Comment' puts the caret in the comment box; a comment, then a reply to it.
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

  // Someone else (signed up, not the author) sees no Delete on the post or the comments.
  const other = await newPage(browser);
  await signUp(other, "posts-other");
  await other.goto(postPath);
  await hydrated(other);
  await expect(other.getByRole("article", { name: "Post by Jamie R." })).toContainText(words);
  await other.getByRole("button", { name: "More options for this post" }).click();
  await expect(other.getByRole("menuitem", { name: "Copy link" })).toBeVisible();
  await expect(other.getByRole("menuitem", { name: "Send Message" })).toBeVisible();
  await expect(other.getByRole("menuitem", { name: "Delete" })).toHaveCount(0);
  await expect(other.getByRole("menuitem", { name: "Boost Post" })).toHaveCount(0);
  await other.keyboard.press("Escape");
  await expect(
    other.getByRole("list", { name: "Comments" }).getByRole("button", { name: "Delete" }),
  ).toHaveCount(0);
  await other.context().close();

  // The author deletes the reply ('Comment Removed'), then the post ('Your post was deleted' → /home).
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

test("a visitor: saving opens the sign-in modal, ?redirect=true opens the share dialog, links are copied", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const avatar = await writePhoto(testInfo.outputPath("avatar.png"), { r: 40, g: 120, b: 60 }, 400, 400);
  const author = await newPage(browser);
  await readyStudent(author, "posts-author", avatar);
  const words = `Bike helmet ${Date.now()}`;
  await author.goto("/home");
  await hydrated(author);
  await author.getByText("What are you selling?").first().click();
  const composer = author.getByRole("form", { name: "Create Post" });
  await composer.getByRole("textbox", { name: "Post text" }).click();
  await author.keyboard.type(words);
  await composer.getByRole("button", { name: "Post", exact: true }).click();
  await expect(toast(author, "Posted! Your post was sent.")).toBeVisible();
  await author.goto("/home");
  await author.getByRole("article").filter({ hasText: words }).getByRole("link", { name: "Comment" }).click();
  await expect(author).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  const postPath = new URL(author.url()).pathname;
  await author.context().close();

  const context = await browser.newContext();
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
