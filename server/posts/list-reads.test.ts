import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { listFeedWithAds } from "../ads/feed-insertion";
import type { AppContext } from "../context";
import { listFeed, listProfilePosts, listSaved } from "./feed";

// Decision 0361: with DATABASE_READ_URL the visitors' lists read the replica; a
// signed-in viewer's lists, and every write, stay on the primary. The "replica" here is a second
// database (on PGlite and on PostgreSQL alike) holding different posts, so each list shows which
// database it read.

let primary: TestContext;
let replica: TestContext;
beforeAll(async () => {
  primary = await createTestContext();
  replica = await createTestContext();
});
afterAll(async () => {
  await primary?.close();
  await replica?.close();
});

describe("the lists' read replica (decision 0361)", () => {
  it("serves a visitor's feed (with its ads) and profile lists from the replica, and a signed-in viewer's from the primary", async () => {
    const writer = await createTestMember(primary);
    const onPrimary = await createTestPost(primary, writer.viewer, { text: "Only on the primary" });
    const copied = await createTestMember(replica);
    const onReplica = await createTestPost(replica, copied.viewer, { text: "Only on the replica" });
    const campusId = writer.viewer.campusId;
    expect(copied.viewer.campusId).toBe(campusId);
    const ctx: AppContext = { ...primary.ctx, listReadDb: replica.ctx.db };
    const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

    const visitorFeed = ids(await listFeed(ctx, null, { campusId }));
    expect(visitorFeed).toContain(onReplica.id);
    expect(visitorFeed).not.toContain(onPrimary.id);
    expect(ids(await listFeedWithAds(ctx, null, { campusId }))).toContain(onReplica.id);
    expect(ids(await listProfilePosts(ctx, null, { campusId, userId: copied.id }))).toEqual([onReplica.id]);

    // The student who just posted sees their post: their lists read where it was written.
    const ownFeed = ids(await listFeed(ctx, writer.viewer, { campusId }));
    expect(ownFeed).toContain(onPrimary.id);
    expect(ownFeed).not.toContain(onReplica.id);
    expect(ids(await listProfilePosts(ctx, writer.viewer, { campusId, userId: writer.id }))).toEqual([
      onPrimary.id,
    ]);
    expect((await listSaved(ctx, writer.viewer, { campusId })).items).toEqual([]);

    // Without a replica, visitors read the primary.
    const plain = ids(await listFeed(primary.ctx, null, { campusId }));
    expect(plain).toContain(onPrimary.id);
    expect(plain).not.toContain(onReplica.id);
  });
});
