import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { posts, user } from "../db/schema";
import { insertNewUserPost } from "./new-user-post";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe("the 'new user' post (spec 1 §4, spec 2 §2)", () => {
  it("is a top-level post of type 'new user' without text or media, on the joined campus", async () => {
    const student = await createTestUser(t, { verified: true });
    const at = t.clock.now();
    const { id } = await insertNewUserPost(t.ctx.db, { authorId: student.id, campusId: "ut", at });
    const [row] = await t.ctx.db.select().from(posts).where(eq(posts.id, id));
    expect(row).toMatchObject({
      type: "new user",
      authorId: student.id,
      campusId: "ut",
      text: null,
      textPlain: "",
      parentId: null,
      rootId: null,
      imgCount: 0,
      saveCount: 0,
      commentCount: 0,
    });
    expect(row?.createdAt.getTime()).toBe(at.getTime());
    expect(row?.lastModified.getTime()).toBe(at.getTime());
    const [author] = await t.ctx.db
      .select({ totalPosts: user.totalPosts })
      .from(user)
      .where(eq(user.id, student.id));
    expect(author?.totalPosts).toBe(0);
  });

  it("belongs to the caller's transaction: rolled back with it", async () => {
    const student = await createTestUser(t, { verified: true });
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await insertNewUserPost(tx, { authorId: student.id, campusId: "ou", at: t.clock.now() });
        throw new Error("later step failed");
      }),
    ).rejects.toThrow("later step failed");
    expect(await t.ctx.db.select().from(posts).where(eq(posts.authorId, student.id))).toHaveLength(0);
  });
});
