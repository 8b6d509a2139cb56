import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { getThread } from "../posts/comments";
import { listFeed, listProfilePosts } from "../posts/feed";
import { getPost } from "../posts/posts";
import { listPostSavers } from "../posts/saves";
import { getCampus, seedCampuses } from "./campuses";

// Decision 0135: as configured by default (PUBLIC_CAMPUSES unset) every campus is
// private (spec 1 §3), so a visitor holding a shared link learns nothing of a post.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ publicCampuses: [] });
});
afterAll(() => t.close());

describe("campus privacy from PUBLIC_CAMPUSES", () => {
  it("keeps every campus private by default, the generic site aside", async () => {
    for (const campus of t.ctx.campuses.all()) {
      expect(campus.privacy, campus.id).toBe(campus.generic ? "public" : "private");
    }
  });

  it("gives a visitor nothing of a private campus's post, its thread or who saved it", async () => {
    const member = await createTestMember(t, { campusId: "ou" });
    const post = await createTestPost(t, member.viewer, { text: "Selling my calculus textbook" });
    const ref = { postId: post.id, campusId: "ou" };
    const refused = { code: "private-campus", message: "This community is private" };
    await expect(getPost(t.ctx, null, ref)).rejects.toMatchObject(refused);
    await expect(getThread(t.ctx, null, ref)).rejects.toMatchObject(refused);
    await expect(listPostSavers(t.ctx, null, ref)).rejects.toMatchObject(refused);
    await expect(listFeed(t.ctx, null, { campusId: "ou" })).rejects.toMatchObject(refused);
    await expect(listFeed(t.ctx, null, { campusId: "ou", media: true })).rejects.toMatchObject(refused);
    await expect(
      listProfilePosts(t.ctx, null, { campusId: "ou", userId: member.viewer.id }),
    ).rejects.toMatchObject(refused);
    // A member reads it as before.
    expect((await getPost(t.ctx, member.viewer, ref))?.plainText).toBe("Selling my calculus textbook");
  });

  it("writes each campus's privacy from the setting at every start, over what was stored", async () => {
    try {
      await seedCampuses(t.ctx.db, ["ut"]);
      expect((await getCampus(t.ctx.db, "ut"))?.privacy).toBe("public");
      expect((await getCampus(t.ctx.db, "ou"))?.privacy).toBe("private");
      await seedCampuses(t.ctx.db, []);
      expect((await getCampus(t.ctx.db, "ut"))?.privacy).toBe("private");
      expect((await getCampus(t.ctx.db, "www"))?.privacy).toBe("public");
    } finally {
      await seedCampuses(t.ctx.db, t.ctx.config.publicCampuses);
    }
  });

  it("lets visitors read a campus PUBLIC_CAMPUSES opens, and only that one", async () => {
    const opened = await createTestContext({ publicCampuses: ["ut"] });
    try {
      const utMember = await createTestMember(opened, { campusId: "ut" });
      const ouMember = await createTestMember(opened, { campusId: "ou" });
      const utPost = await createTestPost(opened, utMember.viewer, { text: "Bike for sale" });
      const ouPost = await createTestPost(opened, ouMember.viewer);
      expect((await getPost(opened.ctx, null, { postId: utPost.id, campusId: "ut" }))?.plainText).toBe(
        "Bike for sale",
      );
      await expect(getPost(opened.ctx, null, { postId: ouPost.id, campusId: "ou" })).rejects.toMatchObject({
        code: "private-campus",
      });
    } finally {
      await opened.close();
    }
  });
});
