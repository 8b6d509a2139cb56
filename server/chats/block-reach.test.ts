import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { notifications, searchTerms, userBlocks } from "../db/schema";
import { countUnreadNotifications, listNotifications } from "../notifications/notifications";
import { getThread } from "../posts/comments";
import { toggleSave } from "../posts/saves";
import { POST_MESSAGES } from "../posts/schemas";
import { searchPeople } from "../search/people";
import { searchPosts } from "../search/posts";
import { blockUser, unblockUser } from "./blocks";

// Decision 0462: a block (either way) reaches comments, notifications and searches.

let t: TestContext;
let ana: TestMember;
let ben: TestMember;
let cy: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  ana = await createTestMember(t, { fullName: "Ana Blocker" });
  ben = await createTestMember(t, { fullName: "Ben Blocked" });
  cy = await createTestMember(t, { fullName: "Cy Bystander" });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.ctx.db.delete(userBlocks);
  await t.ctx.db.delete(notifications);
});

/** Every comment's author in a thread, depth first, as the post page shows them. */
async function threadAuthors(viewer: TestMember | null, postId: string): Promise<string[]> {
  const thread = (await getThread(t.ctx, viewer?.viewer ?? null, { postId, campusId: "ou" })) ?? [];
  const authors: string[] = [];
  const walk = (list: typeof thread) => {
    for (const comment of list) {
      authors.push(comment.author.username);
      walk(comment.replies);
    }
  };
  walk(thread);
  return authors;
}

describe("a block between two people (decision 0462)", () => {
  it("stops each commenting on the other's posts and replying to the other's comments, either way", async () => {
    const anasPost = await createTestPost(t, ana.viewer);
    const bensPost = await createTestPost(t, ben.viewer);
    const cysPost = await createTestPost(t, cy.viewer);
    const anasComment = await createTestComment(t, ana.viewer, cysPost.id);
    await blockUser(t.ctx, ana.viewer, ben.id);

    const refused = { code: "forbidden", status: 403, message: POST_MESSAGES.cannotCommentBlocked };
    await expect(createTestComment(t, ben.viewer, anasPost.id)).rejects.toMatchObject(refused);
    await expect(createTestComment(t, ana.viewer, bensPost.id)).rejects.toMatchObject(refused);
    await expect(createTestComment(t, ben.viewer, anasComment.id)).rejects.toMatchObject(refused);
    // A third person's post stays open to both.
    await createTestComment(t, ben.viewer, cysPost.id);

    await unblockUser(t.ctx, ana.viewer, ben.id);
    await createTestComment(t, ben.viewer, anasPost.id);
  });

  it("hides each one's comments (and the replies under them) from the other, not from others or visitors", async () => {
    const post = await createTestPost(t, cy.viewer);
    const bensComment = await createTestComment(t, ben.viewer, post.id);
    await createTestComment(t, cy.viewer, bensComment.id);
    await createTestComment(t, ana.viewer, post.id);
    await blockUser(t.ctx, ana.viewer, ben.id);

    expect(await threadAuthors(ana, post.id)).toEqual([ana.viewer.username]);
    expect(await threadAuthors(ben, post.id)).toEqual([ben.viewer.username, cy.viewer.username]);
    const everyone = [ben.viewer.username, cy.viewer.username, ana.viewer.username].sort();
    expect((await threadAuthors(cy, post.id)).sort()).toEqual(everyone);
    expect((await threadAuthors(null, post.id)).sort()).toEqual(everyone);
  });

  it("tells neither of the other, and takes what each was told of the other off both lists", async () => {
    const anasPost = await createTestPost(t, ana.viewer);
    const bensPost = await createTestPost(t, ben.viewer);
    await toggleSave(t.ctx, ben.viewer, anasPost.id);
    await toggleSave(t.ctx, ana.viewer, bensPost.id);
    expect(await countUnreadNotifications(t.ctx, ana.viewer)).toBe(1);

    await blockUser(t.ctx, ana.viewer, ben.id);
    expect(await countUnreadNotifications(t.ctx, ana.viewer)).toBe(0);
    expect(await countUnreadNotifications(t.ctx, ben.viewer)).toBe(0);
    expect((await listNotifications(t.ctx, ana.viewer, {})).items).toEqual([]);

    // The blocked one's save, and the blocker's, notify nobody now.
    await toggleSave(t.ctx, ben.viewer, anasPost.id);
    await toggleSave(t.ctx, ben.viewer, anasPost.id);
    await toggleSave(t.ctx, ana.viewer, bensPost.id);
    await toggleSave(t.ctx, ana.viewer, bensPost.id);
    const rows = await t.ctx.db.select().from(notifications);
    expect(rows).toEqual([]);
  });

  it("keeps each out of the other's people search, both ways", async () => {
    const found = async (viewer: TestMember, person: TestMember) =>
      (await searchPeople(t.ctx, viewer.viewer, { campusId: "ou", text: person.viewer.username })).items.map(
        (hit) => hit.id,
      );
    expect(await found(ana, ben)).toContain(ben.id);
    await blockUser(t.ctx, ana.viewer, ben.id);
    expect(await found(ana, ben)).not.toContain(ben.id);
    expect(await found(ben, ana)).not.toContain(ana.id);
    expect(await found(cy, ben)).toContain(ben.id);
    expect(await found(cy, ana)).toContain(ana.id);
  });

  it("keeps each one's posts out of the other's post search, both ways, by either plan", async () => {
    const bens = await createTestPost(t, ben.viewer, { text: "Walnut bookshelf" });
    t.clock.advance(1000);
    const anas = await createTestPost(t, ana.viewer, { text: "Walnut desk" });
    const found = async (viewer: TestMember | null) =>
      (
        await searchPosts(t.ctx, viewer?.viewer ?? null, { campusId: "ou", q: "walnut", show: "latest" })
      ).items.map((item) => item.id);
    await blockUser(t.ctx, ana.viewer, ben.id);
    for (const plan of ["bitmap", "walk"]) {
      // The walk is chosen for words common on the campus (server/search/posts.ts choosePostSearchPlan).
      if (plan === "walk")
        await t.ctx.db.update(searchTerms).set({ docCount: 5000 }).where(eq(searchTerms.term, "walnut"));
      expect(await found(ana)).toEqual([anas.id]);
      expect(await found(ben)).toEqual([bens.id]);
      expect(await found(cy)).toEqual([anas.id, bens.id]);
      expect(await found(null)).toEqual([anas.id, bens.id]);
    }
  });
});
