import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  type TestMember,
  viewerOf,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { isParticipationRefused } from "../accounts/participation";
import { boostPost } from "../ads/boost";
import { startConversation } from "../chats/conversations";
import { user } from "../db/schema";
import { toggleSave } from "../posts/saves";
import { fileReport } from "./reports";

/**
 * Decision 0547: a suspended student reads and saves, but cannot post, comment, message, report
 * or boost until the clock passes the suspension's end; no job ends it. On both databases.
 */

let t: TestContext;
let student: TestMember;
let other: TestMember;
let ownPost: string;
const END = new Date("2026-03-05T15:00:00.000Z");

beforeAll(async () => {
  t = await createTestContext();
  student = await createTestMember(t);
  other = await createTestMember(t);
  ownPost = (await createTestPost(t, student.viewer, { text: "Lamp" })).id;
  await t.ctx.db.update(user).set({ suspendedUntil: END }).where(eq(user.id, student.id));
  student = { ...student, viewer: await viewerOf(t, student.id) };
});
afterAll(() => t.close());

const actions: [string, () => Promise<unknown>][] = [
  ["post", () => createTestPost(t, student.viewer, { text: "While suspended" })],
  ["comment", async () => createTestComment(t, student.viewer, (await createTestPost(t, other.viewer)).id)],
  ["message", () => startConversation(t.ctx, student.viewer, { recipientId: other.id, text: "Hi" })],
  [
    "report",
    () => fileReport(t.ctx, student.viewer, { targetKind: "user", targetId: other.id, reason: "spam" }),
  ],
  [
    "boost",
    () =>
      boostPost(
        t.ctx,
        student.viewer,
        { postId: ownPost, campusId: "ou" },
        { goal: "message", days: "1" },
        "http://ou.localhost:3000",
      ),
  ],
];

describe("the suspension gate (decision 0547)", () => {
  it.each(actions)(
    "refuses to %s while suspended: 403, the end date, a link to the standing page",
    async (_, act) => {
      expect(t.clock.now().getTime()).toBeLessThan(END.getTime());
      let caught: unknown;
      try {
        await act();
      } catch (error) {
        caught = error;
      }
      expect(isParticipationRefused(caught)).toBe(true);
      if (!isParticipationRefused(caught)) return;
      expect(caught.refusal).toEqual({ kind: "suspended", until: END });
      expect(caught.status).toBe(403);
      expect(caught.message).toBe("Your account is suspended until March 5, 2026 at 3:00 PM UTC");
      expect(caught.link).toEqual({ to: "/settings/account/standing", label: "See your standing" });
    },
  );

  it("lets a suspended student save a post", async () => {
    const post = await createTestPost(t, other.viewer, { text: "Chair" });
    await expect(toggleSave(t.ctx, student.viewer, post.id)).resolves.toMatchObject({ saved: true });
  });

  it("allows every action once the clock passes the end, with no job run", async () => {
    t.clock.set(new Date(END.getTime() + 1000));
    for (const [, act] of actions) {
      await expect(act()).resolves.toBeDefined();
    }
  });
});
