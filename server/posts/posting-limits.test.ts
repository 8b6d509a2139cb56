import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  pngFile,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { posts } from "../db/schema";
import { createComment } from "./comments";
import { insertNewUserPost } from "./new-user-post";
import { waitText } from "./posting-limits";
import { createPost } from "./posts";
import { plainTextToRichText } from "./rich-text.shared";

// Decision 0116: at most 10 posts and comments a minute and 100 a day per person,
// counted from the database, refused before any file is stored, saying when to try again.

let t: TestContext;
let other: TestMember;

beforeAll(async () => {
  t = await createTestContext({ postLimits: { perMinute: 10, perDay: 100 } });
  other = await createTestMember(t, { fullName: "Other Seller" });
});
afterAll(() => t.close());

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

async function rowsBy(authorId: string): Promise<number> {
  const [row] = await t.ctx.db.select({ n: count() }).from(posts).where(eq(posts.authorId, authorId));
  return row?.n ?? 0;
}

describe("the posting limit (decision 0116)", () => {
  it("allows 10 posts and comments a minute, then says when to try again, storing no file", async () => {
    const member = await createTestMember(t);
    const { id } = await createTestPost(t, member.viewer);
    for (let n = 1; n < 10; n++) {
      t.clock.advance(4 * SECOND);
      // Comments count with posts.
      if (n % 2 === 0) await createTestComment(t, member.viewer, id);
      else await createTestPost(t, member.viewer);
    }
    t.clock.advance(4 * SECOND);
    const filesBefore = t.storage.objects.size;
    const refused = createPost(t.ctx, member.viewer, {
      campusId: "ou",
      text: JSON.stringify(plainTextToRichText("One more")),
      files: [await pngFile()],
    });
    // The first of the 10 (40 s ago) leaves the minute 60 s after it was made: 20 s from now.
    await expect(refused).rejects.toMatchObject({
      code: "rate-limited",
      message: "You're posting too fast. Please try again in 1 minute.",
      retryAfterSeconds: 20,
    });
    await expect(createTestComment(t, member.viewer, id)).rejects.toMatchObject({ code: "rate-limited" });
    expect(t.storage.objects.size).toBe(filesBefore);
    expect(await rowsBy(member.id)).toBe(10);

    // Someone else is not held back by it.
    await createTestPost(t, other.viewer);

    t.clock.advance(20 * SECOND);
    await createTestPost(t, member.viewer);
    expect(await rowsBy(member.id)).toBe(11);
  });

  it("allows 100 a day, then names the hours left; a 'new user' banner is not counted", async () => {
    const member = await createTestMember(t);
    const now = t.clock.now().getTime();
    await insertNewUserPost(t.ctx.db, { authorId: member.id, campusId: "ou", at: new Date(now - HOUR) });
    // 99 posts over the last 20 hours, the oldest 20 hours ago; the 100th now.
    await t.ctx.db.insert(posts).values(
      Array.from({ length: 99 }, (_, index) => ({
        campusId: "ou",
        authorId: member.id,
        textPlain: `Post ${index}`,
        createdAt: new Date(now - 20 * HOUR + index * 12 * MINUTE),
        lastModified: new Date(now - 20 * HOUR + index * 12 * MINUTE),
      })),
    );
    await createTestPost(t, member.viewer);
    t.clock.advance(2 * MINUTE);
    await expect(createTestPost(t, member.viewer)).rejects.toMatchObject({
      code: "rate-limited",
      message: "You've posted 100 times in the last 24 hours, the most allowed. Please try again in 4 hours.",
      retryAfterSeconds: 4 * 60 * 60 - 2 * 60,
    });
    t.clock.advance(4 * HOUR);
    await createTestPost(t, member.viewer);
  });

  it("holds when requests arrive at once: each waits for the author's row and counts again", async () => {
    const member = await createTestMember(t);
    for (let n = 0; n < 8; n++) await createTestPost(t, member.viewer);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => createTestPost(t, member.viewer)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(2);
    expect(await rowsBy(member.id)).toBe(10);
  });

  it("says the wait rounded up to minutes, then hours", () => {
    expect(waitText(1_000)).toBe("1 minute");
    expect(waitText(61_000)).toBe("2 minutes");
    expect(waitText(HOUR)).toBe("60 minutes");
    expect(waitText(HOUR + 1)).toBe("2 hours");
    expect(waitText(23 * HOUR)).toBe("23 hours");
  });

  it("comments too: createComment refuses before reading the post it answers", async () => {
    const member = await createTestMember(t);
    for (let n = 0; n < 10; n++) await createTestPost(t, member.viewer);
    await expect(
      createComment(t.ctx, member.viewer, { postId: "6f1c9a36-0000-4000-8000-000000000001", text: "{}" }),
    ).rejects.toMatchObject({ code: "rate-limited" });
  });
});
