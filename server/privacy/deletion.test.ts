import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  createTestUser,
  pngFile,
  requestHeaders,
  type TestMember,
  viewerOf,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { registerUser, signIn } from "../accounts/accounts";
import { getViewerFromHeaders } from "../accounts/viewer";
import { getChat, listChats, startConversation } from "../chats/conversations";
import { sendMessage } from "../chats/messages";
import {
  account,
  ads,
  dataExports,
  mailOutbox,
  moderationLog,
  payments,
  posts,
  pushSubscriptions,
  staffRoles,
  user,
  userBlocks,
} from "../db/schema";
import { toggleSave } from "../posts/saves";
import { getProfileByUsername } from "../profiles/profiles";
import { recordSearch } from "../search/history";
import { searchPeople } from "../search/people";
import { ACCOUNT_TABLES } from "./account-tables";
import { deleteAccount, releaseDeletedAccounts, requestDeletionCode } from "./deletion";

// Decision 0571: deleting an account, on every table of its declared list and every count.

let t: TestContext;
let alice: TestMember;
let bob: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  // A class year and a period's reminder: the tombstone keeps neither (decision 0680).
  alice = await createTestMember(t, { fullName: "Alice Leaving", gradYear: 2027 });
  bob = await createTestMember(t, { fullName: "Bob Staying" });
});
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const campus = { id: "ou", name: "OU", generic: false };

async function count(table: string, column: string, userId: string): Promise<number> {
  const result = await t.ctx.db.execute(
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)}::text = ${userId}`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? -1;
}

async function post(id: string) {
  const [row] = await t.ctx.db.select().from(posts).where(eq(posts.id, id));
  return row;
}

describe("deleteAccount (decision 0571)", () => {
  it("asks for the password, refuses a wrong one and locks after 5 tries", async () => {
    const student = await createTestMember(t);
    const headers = requestHeaders({ cookie: student.cookie });
    await expect(
      deleteAccount(t.ctx, t.auth, student.viewer, { confirm: "on" }, headers),
    ).rejects.toMatchObject({
      code: "invalid-input",
      field: "password",
    });
    await expect(
      deleteAccount(t.ctx, t.auth, student.viewer, { password: student.password }, headers),
    ).rejects.toMatchObject({ code: "invalid-input", field: "confirm" });
    for (let i = 0; i < 4; i++) {
      await expect(
        deleteAccount(t.ctx, t.auth, student.viewer, { password: "wrong-one", confirm: "on" }, headers),
      ).rejects.toMatchObject({ code: "wrong-password" });
    }
    await expect(
      deleteAccount(t.ctx, t.auth, student.viewer, { password: "wrong-one", confirm: "on" }, headers),
    ).rejects.toMatchObject({ code: "too-many-tries" });
    // Locked: even the right password waits 15 minutes.
    await expect(
      deleteAccount(t.ctx, t.auth, student.viewer, { password: student.password, confirm: "on" }, headers),
    ).rejects.toMatchObject({ code: "too-many-tries" });
    expect((await viewerOf(t, student.id)).id).toBe(student.id);
  });

  it("checks the password against the request's own session: another account's or none is refused", async () => {
    const student = await createTestMember(t);
    const other = await createTestMember(t);
    for (const headers of [requestHeaders(), requestHeaders({ cookie: other.cookie })]) {
      await expect(
        deleteAccount(t.ctx, t.auth, student.viewer, { password: student.password, confirm: "on" }, headers),
      ).rejects.toMatchObject({ code: "wrong-password" });
    }
    expect(
      await getViewerFromHeaders(t.ctx, t.auth, requestHeaders({ cookie: student.cookie })),
    ).not.toBeNull();
  });

  it("confirms an account without a password with a mailed code, once", async () => {
    const student = await createTestMember(t);
    // As a Google account: no password.
    await t.ctx.db.delete(account).where(eq(account.userId, student.id));
    const headers = requestHeaders({ cookie: student.cookie });
    await expect(
      deleteAccount(t.ctx, t.auth, student.viewer, { code: "1234", confirm: "on" }, headers),
    ).rejects.toMatchObject({ code: "wrong-code" });
    await requestDeletionCode(t.ctx, student.viewer, campus);
    const [mail] = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, student.email), eq(mailOutbox.kind, "account-deletion-code")));
    const code = mail?.text.match(/\b\d{4}\b/)?.[0] ?? "";
    expect(code).toMatch(/^\d{4}$/);
    await deleteAccount(t.ctx, t.auth, student.viewer, { code, confirm: "on" }, headers);
    const [row] = await t.ctx.db
      .select({ deletedAt: user.deletedAt })
      .from(user)
      .where(eq(user.id, student.id));
    expect(row?.deletedAt).toEqual(t.clock.now());
    // A password account is told to use its password.
    await expect(requestDeletionCode(t.ctx, alice.viewer, campus)).rejects.toMatchObject({
      code: "has-password",
    });
  });

  it("removes the student's data from every table of the list, keeps the other side's conversation and the payments, and keeps every count right", async () => {
    // Alice's post with a photo, replied to and saved by Bob; Alice's comment on Bob's post,
    // replied to by Bob; Alice saved Bob's post.
    const aliceViewer = await viewerOf(t, alice.id);
    const bobViewer = await viewerOf(t, bob.id);
    const own = await createTestPost(t, aliceViewer, { text: "Alice's lamp", files: [await pngFile()] });
    await createTestComment(t, bobViewer, own.id, { text: "Still there?" });
    await toggleSave(t.ctx, bobViewer, own.id);
    const bobs = await createTestPost(t, bobViewer, { text: "Bob's desk" });
    const aliceComment = await createTestComment(t, aliceViewer, bobs.id, { text: "How much?" });
    await createTestComment(t, bobViewer, aliceComment.id, { text: "20" });
    await createTestComment(t, bobViewer, bobs.id, { text: "Bump" });
    await toggleSave(t.ctx, aliceViewer, bobs.id);
    expect(await post(bobs.id)).toMatchObject({ commentCount: 2, saveCount: 1 });
    const storedBefore = t.storage.objects.size;

    // A conversation both ways, a search, a push browser, a block, a staff role, an archive.
    const chat = await startConversation(t.ctx, aliceViewer, { recipientId: bob.id, text: "Hi Bob" });
    await sendMessage(t.ctx, bobViewer, chat.chatId, { text: "Hi Alice" });
    await recordSearch(t.ctx, aliceViewer, { campusId: "ou", text: "lamp" });
    await t.ctx.db.insert(pushSubscriptions).values({
      userId: alice.id,
      endpoint: `https://fcm.googleapis.com/fcm/send/${alice.id}`,
      p256dh: "key",
      auth: "auth",
    });
    const carol = await createTestUser(t);
    await t.ctx.db.insert(userBlocks).values({ blockerId: alice.id, blockedId: carol.id });
    await t.ctx.db.insert(staffRoles).values({
      userId: alice.id,
      role: "campus_moderator",
      campusId: "ou",
      source: "command",
      grantedAt: t.clock.now(),
    });
    await t.ctx.db.insert(dataExports).values({ userId: alice.id, requestedAt: t.clock.now() });
    // A running ad of 10 days on her post, paid by test checkout.
    const now = t.clock.now();
    const [ad] = await t.ctx.db
      .insert(ads)
      .values({
        campusId: "ou",
        postId: own.id,
        userId: alice.id,
        ctaType: "message",
        ctaLabel: "Message",
        days: 10,
        amountBudgeted: 5000,
        status: "active",
        startTime: now,
        endTimeAdjusted: new Date(now.getTime() + 10 * DAY_MS),
      })
      .returning();
    await t.ctx.db.insert(payments).values({
      userId: alice.id,
      campusId: "ou",
      adId: ad?.id,
      kind: "payment",
      amount: 5000,
      provider: "test",
      providerRef: "pi_test_alice",
      description: "Boost",
    });

    const username = aliceViewer.username;
    await deleteAccount(
      t.ctx,
      t.auth,
      aliceViewer,
      { password: alice.password, confirm: "on" },
      requestHeaders({ cookie: alice.cookie }),
    );

    // Every 'deleted' table holds nothing of hers.
    for (const [table, fate] of Object.entries(ACCOUNT_TABLES)) {
      if (fate.fate !== "deleted" || table === "verification" || table === "login_throttle") continue;
      // Her address's mail is checked below: the goodbye mail is queued after the deletion.
      for (const column of fate.columns.filter((name) => name !== "to")) {
        expect(await count(table, column, alice.id), `${table}.${column}`).toBe(0);
      }
    }
    // Her posts, comments and the replies below them are gone; Bob's post and his other reply stay.
    expect(await post(own.id)).toBeUndefined();
    expect(await post(aliceComment.id)).toBeUndefined();
    expect(await post(bobs.id)).toMatchObject({ commentCount: 1, saveCount: 0 });
    expect(t.storage.objects.size).toBeLessThan(storedBefore);
    const [bobRow] = await t.ctx.db
      .select({ totalPosts: user.totalPosts })
      .from(user)
      .where(eq(user.id, bob.id));
    expect(bobRow?.totalPosts).toBe(1);

    // The tombstone: nothing personal, the names reserved, a 404 profile, found by nobody.
    const [tomb] = await t.ctx.db.select().from(user).where(eq(user.id, alice.id));
    expect(tomb).toMatchObject({
      firstName: "Deleted",
      lastName: "account",
      img: null,
      bio: null,
      phone: null,
      verified: false,
      schoolVerified: false,
      schoolVerifiedAt: null,
      badgeReminderSentAt: null,
      gradYear: null,
      trustLevel: 0,
      trustLockedAt: null,
      messagePolicy: "anyone",
      username,
      email: alice.email,
    });
    expect(await getProfileByUsername(t.ctx, username)).toBeNull();
    const found = await searchPeople(t.ctx, bobViewer, { campusId: "ou", text: "Alice Leaving" });
    expect(found.items.map((hit) => hit.id)).not.toContain(alice.id);
    // Signed out everywhere; the password no longer signs in.
    expect(await getViewerFromHeaders(t.ctx, t.auth, requestHeaders({ cookie: alice.cookie }))).toBeNull();
    await expect(
      signIn(
        t.ctx,
        t.auth,
        { email: alice.email, password: alice.password },
        { clientIp: null, headers: requestHeaders() },
      ),
    ).rejects.toMatchObject({ code: "user-not-found" });

    // Bob keeps the conversation, from 'Deleted account', and cannot reply.
    const inbox = await listChats(t.ctx, bobViewer);
    expect(inbox.items.find((item) => item.id === chat.chatId)).toMatchObject({ otherDeleted: true });
    expect(await getChat(t.ctx, bobViewer, chat.chatId)).toMatchObject({ otherDeleted: true });
    const messages = await t.ctx.db.execute(
      sql`select count(*)::int as n from chat_messages where chat_id = ${chat.chatId}::uuid`,
    );
    expect((messages as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(2);
    await expect(sendMessage(t.ctx, bobViewer, chat.chatId, { text: "Hello?" })).rejects.toMatchObject({
      code: "account-deleted",
    });

    // The ad stopped with its unused days refunded; the payments stay, pointing at the tombstone.
    const money = await t.ctx.db.select().from(payments).where(eq(payments.userId, alice.id));
    expect(money.map((row) => row.kind).sort()).toEqual(["payment", "refund"]);
    expect(money.find((row) => row.kind === "refund")?.amount).toBeGreaterThanOrEqual(4500);
    // Her role was revoked and logged as the system's.
    const [logged] = await t.ctx.db
      .select()
      .from(moderationLog)
      .where(and(eq(moderationLog.targetUserId, alice.id), eq(moderationLog.action, "revoke_role")));
    expect(logged).toMatchObject({ source: "system" });
    // The goodbye mail is the one mail to her address left.
    const mails = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, alice.email));
    expect(mails.map((mail) => mail.kind)).toEqual(["account-deleted"]);
  });

  it("frees the username and the e-mail address 30 days later", async () => {
    const student = await createTestMember(t);
    const viewer = await viewerOf(t, student.id);
    await deleteAccount(
      t.ctx,
      t.auth,
      viewer,
      { password: student.password, confirm: "on" },
      requestHeaders({ cookie: student.cookie }),
    );
    await expect(
      registerUser(
        t.ctx,
        t.auth,
        { fullName: "Back Again", email: student.email, password: "secret123", terms: true },
        { campusId: "ou", clientIp: null, headers: requestHeaders() },
      ),
    ).rejects.toMatchObject({ code: "email-taken" });
    t.clock.advance(29 * DAY_MS);
    await releaseDeletedAccounts(t.ctx);
    const [still] = await t.ctx.db
      .select({ username: user.username })
      .from(user)
      .where(eq(user.id, student.id));
    expect(still?.username).toBe(viewer.username);
    t.clock.advance(2 * DAY_MS);
    expect(await releaseDeletedAccounts(t.ctx)).toBeGreaterThanOrEqual(1);
    const [released] = await t.ctx.db
      .select({ username: user.username, email: user.email })
      .from(user)
      .where(eq(user.id, student.id));
    expect(released?.username).toBe(`deleted.${student.id.toLowerCase()}`);
    expect(released?.email).not.toBe(student.email);
    const again = await registerUser(
      t.ctx,
      t.auth,
      { fullName: "Back Again", email: student.email, password: "secret123", terms: true },
      { campusId: "ou", clientIp: null, headers: requestHeaders() },
    );
    expect(again.userId).not.toBe(student.id);
  });
});
