import { expect, test } from "@playwright/test";
import { APP_PORT, hostUrl, PRIVATE_CAMPUS } from "./support/env";
import { hydrated } from "./support/page";
import { createStudent } from "./support/student";

// Decision 0135: every campus is private unless PUBLIC_CAMPUSES opens it; the
// harness keeps UNT closed for this spec. A shared link to one of its posts, opened by a visitor
// (or fetched by a link-preview robot), shows the campus and 'Join to see this listing', and the
// page's HTML (title, og:/twitter: tags, the data it hydrates with) holds nothing of the post.

test("a shared link to a private campus's post previews the campus, never the post", async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const words = `Violin with case ${Date.now()}`;
  const author = await createStudent(page.context(), {
    campus: PRIVATE_CAMPUS,
    label: "private-author",
    posts: [{ text: words }],
  });
  const postPath = `/post/${author.postIds[0]}`;
  await page.goto(hostUrl(PRIVATE_CAMPUS, postPath));
  // The member sees the post on its page.
  await expect(page.getByRole("article", { name: "Post by Jamie R." })).toContainText(words);

  // What a link-preview robot fetches: the HTML, signed out (Node does not resolve *.localhost).
  const robot = await playwright.request.newContext();
  const answer = await robot.get(`http://127.0.0.1:${APP_PORT}${postPath}`, {
    headers: { host: `${PRIVATE_CAMPUS}.localhost:${APP_PORT}` },
  });
  expect(answer.status()).toBe(200);
  const html = await answer.text();
  for (const secret of [words, "Violin", "Jamie"]) expect(html).not.toContain(secret);
  expect(html).toContain("<title>Join to see this listing | UNT Buy / Sell</title>");
  expect(html).toContain('<meta property="og:title" content="UNT Buy / Sell"/>');
  expect(html).toContain('<meta property="og:description" content="Join to see this listing"/>');
  expect(html).toContain('<meta name="twitter:description" content="Join to see this listing"/>');
  await robot.dispose();

  // What a visitor's browser shows: the campus and 'Join to see this listing', which leads to joining.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(hostUrl(PRIVATE_CAMPUS, postPath));
  await hydrated(visitor);
  const card = visitor.getByRole("region", { name: "Join to see this listing" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("UNT Buy / Sell");
  await expect(visitor.getByText(words)).toHaveCount(0);
  await visitor.getByRole("link", { name: "Click to Join" }).click();
  await expect(visitor.getByRole("dialog", { name: "Log In / Sign Up" })).toContainText(
    "Log in or sign up to join your campus.",
  );
  await visitorContext.close();
});

test("a visitor of a private campus gets the private gate at a member's /{username}, never the member's name or photo", async ({
  page,
  browser,
  playwright,
}) => {
  const member = await createStudent(page.context(), {
    campus: PRIVATE_CAMPUS,
    label: "private-profile",
    fullName: "Quincy Vandermolen",
  });
  const profilePath = `/${member.username}`;
  // A member of the campus sees the profile.
  await page.goto(hostUrl(PRIVATE_CAMPUS, profilePath));
  await expect(page.getByRole("heading", { name: /Quincy V/ })).toBeVisible();

  // The HTML a signed-out visitor (or a link-preview robot) gets holds nothing of the member.
  const robot = await playwright.request.newContext();
  const answer = await robot.get(`http://127.0.0.1:${APP_PORT}${profilePath}`, {
    headers: { host: `${PRIVATE_CAMPUS}.localhost:${APP_PORT}` },
  });
  const html = await answer.text();
  for (const secret of ["Quincy", "Vandermolen", "/media-files/"]) expect(html).not.toContain(secret);
  expect(html).toContain('<meta name="robots" content="noindex"/>');
  await robot.dispose();

  // A visitor's browser shows the private-community gate (spec 1 §6), as the feed does.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(hostUrl(PRIVATE_CAMPUS, profilePath));
  await hydrated(visitor);
  await expect(visitor.getByRole("heading", { name: "This community is private" })).toBeVisible();
  await expect(visitor.getByText("Quincy")).toHaveCount(0);
  await expect(visitor.getByRole("link", { name: "Click to Join" })).toBeVisible();
  await visitorContext.close();
});
