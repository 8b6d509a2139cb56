import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { notifications, savedSearchMatchQueue } from "../db/schema";
import { deliverDueMail } from "../mail/outbox";
import { mailComposers } from "../mail/worker";
import { listNotifications } from "../notifications/notifications";
import { runSavedSearchMatching } from "./saved-search-matching";
import { saveSearch } from "./saved-searches";

// Decision 0621: an instant match's e-mail (at most one an hour per search) says what the bell
// says — 'New match for "desk lamp"', or 'N new matches for "desk lamp"' when several joined the
// notice before it was sent — and leads where the bell leads.

let t: TestContext;
let seller: TestMember;

beforeAll(async () => {
  t = await createTestContext({ notificationEmailDelayMs: 120_000 });
  seller = await createTestMember(t, { fullName: "Sol Seller" });
});
afterAll(() => t.close());

async function drain(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { more } = await runSavedSearchMatching(t.ctx);
    const [left] = await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(savedSearchMatchQueue);
    if (!more && Number(left?.n ?? 0) === 0) return;
  }
  throw new Error("the match queue did not drain");
}

async function mailTo(member: TestMember) {
  await deliverDueMail(t.ctx, 50, mailComposers);
  return t.mail.sent.filter((mail) => mail.to === member.email && mail.headers?.["List-Unsubscribe"]);
}

describe("the instant saved-search e-mail", () => {
  it("is named after the search, as the notice is", async () => {
    const student = await createTestMember(t, { fullName: "Ina Instant" });
    await saveSearch(t.ctx, student.viewer, { campusId: "ou", query: "q=desk+lamp" });
    const post = await createTestPost(t, seller.viewer, { text: "IKEA desk lamp, barely used" });
    await drain();
    t.clock.advance(121_000);
    const sent = await mailTo(student);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe('New match for "desk lamp"');
    expect(sent[0]?.text).toContain('New match for "desk lamp"');
    expect(sent[0]?.text).toContain(`/post/${post.id}`);
    expect(sent[0]?.text).not.toContain("posted a new match");
    expect(sent[0]?.html).toContain("New match for &quot;desk lamp&quot;");
  });

  it("counts the matches that joined the notice before it was sent, and leads to the results", async () => {
    const student = await createTestMember(t, { fullName: "Gus Grouped" });
    await saveSearch(t.ctx, student.viewer, { campusId: "ou", query: "q=kettle" });
    await createTestPost(t, seller.viewer, { text: "Electric kettle" });
    await drain();
    t.clock.advance(30_000);
    await createTestPost(t, seller.viewer, { text: "Glass kettle" });
    await drain();
    t.clock.advance(121_000);
    const sent = await mailTo(student);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe('2 new matches for "kettle"');
    expect(sent[0]?.text).toContain("/search?q=kettle");
    // The bell says the same (opening the list reads the notice, so it comes after the e-mail).
    const page = await listNotifications(t.ctx, student.viewer);
    expect(page.items.map((item) => [item.text, item.href])).toEqual([
      ['2 new matches for "kettle"', "/search?q=kettle"],
    ]);
    // Sent: the notice is marked e-mailed, and nothing is sent again.
    const [notice] = await t.ctx.db.select().from(notifications).where(eq(notifications.userId, student.id));
    expect(notice?.emailedAt).not.toBeNull();
    t.clock.advance(600_000);
    expect(await mailTo(student)).toHaveLength(1);
  });
});
