import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  pngFile,
  type TestMember,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { Page } from "../lists/pages";
import { listProfilePhotos, listProfilePosts, listProfileReplies, listProfileSaves, listSaved } from "./feed";
import { insertNewUserPost } from "./new-user-post";
import { toggleSave } from "./saves";
import type { PostSummary } from "./views";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const SECOND = 1000;

/** Every page of a list, following nextCursor, with a hook between pages. */
async function allPages(
  load: (cursor: string | null) => Promise<Page<PostSummary>>,
  between: (pageIndex: number) => Promise<void> = async () => {},
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await load(cursor);
    pages.push(page.items.map((item) => item.id));
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
    await between(pages.length);
  }
}

async function postMany(member: TestMember, n: number, options: { step?: number } = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(options.step ?? SECOND);
    ids.push((await createTestPost(t, member.viewer, { text: `Item ${i}` })).id);
  }
  // Newest first, as the feed shows them.
  return ids.reverse();
}

describe("saved posts and profile tabs (spec 2 §2, §7)", () => {
  it("lists the viewer's saves, most recently saved first, 10 a page; visitors are asked to sign in", async () => {
    const seller = await createTestMember(t, { campusId: "stanford" });
    const saver = await createTestMember(t, { campusId: "stanford" });
    const ids = await postMany(seller, 12);
    // Saved oldest post first: the save order, not the posts' order, decides.
    const saveOrder = [...ids].reverse();
    for (const id of saveOrder) {
      t.clock.advance(SECOND);
      await toggleSave(t.ctx, saver.viewer, id);
    }
    await toggleSave(t.ctx, saver.viewer, ids[0] as string); // unsaved again
    const pages = await allPages((cursor) =>
      listSaved(t.ctx, saver.viewer, { campusId: "stanford", cursor }),
    );
    expect(pages.map((page) => page.length)).toEqual([10, 1]);
    expect(pages.flat()).toEqual(ids.slice(1));
    expect(pages.flat().length).toBe(11);
    await expect(listSaved(t.ctx, null, { campusId: "stanford" })).rejects.toMatchObject({
      refusal: { kind: "sign-in", reason: "like" },
    });
  });

  it("fills the profile tabs: posts (no 'new user', no comments), photos, replies, likes", async () => {
    const member = await createTestMember(t, { campusId: "fsu" });
    const other = await createTestMember(t, { campusId: "fsu" });
    await insertNewUserPost(t.ctx.db, { authorId: member.id, campusId: "fsu", at: t.clock.now() });
    t.clock.advance(SECOND);
    const textPost = await createTestPost(t, member.viewer, { text: "Text" });
    t.clock.advance(SECOND);
    const photoPost = await createTestPost(t, member.viewer, { files: [await pngFile()] });
    t.clock.advance(SECOND);
    const othersPost = await createTestPost(t, other.viewer, { text: "Other's" });
    t.clock.advance(SECOND);
    const reply = await createTestComment(t, member.viewer, othersPost.id, { files: [await pngFile()] });
    await toggleSave(t.ctx, member.viewer, othersPost.id);

    const ids = (page: Page<PostSummary>) => page.items.map((item) => item.id);
    const input = { userId: member.id, campusId: "fsu" };
    expect(ids(await listProfilePosts(t.ctx, other.viewer, input))).toEqual([photoPost.id, textPost.id]);
    expect(ids(await listProfilePhotos(t.ctx, other.viewer, input))).toEqual([photoPost.id]);
    const replies = await listProfileReplies(t.ctx, other.viewer, input);
    expect(ids(replies)).toEqual([reply.id]);
    expect(replies.items[0]).toMatchObject({ parentId: othersPost.id, rootId: othersPost.id });
    expect(ids(await listProfileSaves(t.ctx, null, input))).toEqual([othersPost.id]);
  });

  it("pages profile lists by 10", async () => {
    const member = await createTestMember(t, { campusId: "ucf" });
    const ids = await postMany(member, 11);
    const pages = await allPages((cursor) =>
      listProfilePosts(t.ctx, null, { userId: member.id, campusId: "ucf", cursor }),
    );
    expect(pages.map((page) => page.length)).toEqual([10, 1]);
    expect(pages.flat()).toEqual(ids);
  });
});
