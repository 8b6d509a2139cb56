import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { countCampusMembers } from "../campuses/campuses";
import { startConversation } from "../chats/conversations";
import { countUnreadChats, markChatRead } from "../chats/read-state";
import { toggleSave } from "../posts/saves";
import { currentUserSeq } from "../realtime/events";
import { readShellCounts } from "./badges";
import { countUnreadNotifications, markNotificationsSeen } from "./notifications";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe("readShellCounts (decision 0354: the badges in one statement)", () => {
  it("reads the same unread chats, unread notifications, event number and member count as each area's own count", async () => {
    const ana = await createTestMember(t, { fullName: "Ana Alba" });
    const ben = await createTestMember(t, { fullName: "Ben Bell" });
    const campusId = ana.viewer.campusId;
    expect(await readShellCounts(t.ctx, ana.viewer, campusId)).toEqual({
      unreadChats: 0,
      unreadNotifications: 0,
      realtimeSeq: 0,
      memberCount: await countCampusMembers(t.ctx.db, campusId),
      waitingItems: 0,
    });

    const post = await createTestPost(t, ana.viewer, { text: "Desk lamp" });
    await toggleSave(t.ctx, ben.viewer, post.id);
    const { chatId } = await startConversation(t.ctx, ben.viewer, {
      recipientId: ana.id,
      text: "still for sale?",
    });
    const counts = await readShellCounts(t.ctx, ana.viewer, campusId);
    expect(counts).toEqual({
      unreadChats: await countUnreadChats(t.ctx, ana.viewer),
      unreadNotifications: await countUnreadNotifications(t.ctx, ana.viewer),
      realtimeSeq: await currentUserSeq(t.ctx.db, ana.id),
      memberCount: await countCampusMembers(t.ctx.db, campusId),
      waitingItems: 0,
    });
    expect(counts.unreadChats).toBe(1);
    expect(counts.unreadNotifications).toBeGreaterThan(0);
    expect(counts.realtimeSeq).toBeGreaterThan(0);
    // Ana and Ben at least: both school-verified members of the campus.
    expect(counts.memberCount).toBeGreaterThanOrEqual(2);
    // The sender's own counts are not the recipient's.
    expect((await readShellCounts(t.ctx, ben.viewer, campusId)).unreadChats).toBe(0);

    await markChatRead(t.ctx, ana.viewer, chatId);
    t.clock.advance(1000);
    await markNotificationsSeen(t.ctx, ana.viewer);
    expect(await readShellCounts(t.ctx, ana.viewer, campusId)).toMatchObject({
      unreadChats: 0,
      unreadNotifications: 0,
    });
  });
});
