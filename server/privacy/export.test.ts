import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import {
  createTestComment,
  createTestMember,
  createTestPost,
  pngFile,
  type TestMember,
  viewerOf,
} from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { createCompletedDeal } from "../../tests/support/trade";
import { startConversation } from "../chats/conversations";
import { sendMessage } from "../chats/messages";
import { dataExports, mailOutbox } from "../db/schema";
import { listNotifications } from "../notifications/notifications";
import { toggleSave } from "../posts/saves";
import { recordSearch } from "../search/history";
import { writeReview } from "../trade/reviews";
import {
  DATA_EXPORT_MAIL_KIND,
  getDataExportState,
  openDataExport,
  requestDataExport,
  runDataExportsRound,
} from "./export";

// Decision 0570: the archive's contents (opened with yauzl), and its link: once, 7 days, its owner.

let t: TestContext;
let dataDir: string;
let alice: TestMember;
let bob: TestMember;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cbs-export-test-"));
  t = await createTestContext({ dataDir });
  alice = await createTestMember(t, { fullName: "Alice Archive", gradYear: 2027 });
  bob = await createTestMember(t, { fullName: "Bob Other" });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on("end", () => resolve());
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}

/** The token in the newest archive mail to an address. */
async function linkToken(email: string): Promise<string> {
  const [mail] = await t.ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, DATA_EXPORT_MAIL_KIND)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  const token = mail?.text.match(/\/settings\/account\/data\/download\?token=([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error("no archive link mailed");
  return token;
}

describe("the data archive (decision 0570)", () => {
  it("holds the student's profile, posts, comments, photos, saves, searches, messages and money, and nothing else of others", async () => {
    const me = await viewerOf(t, alice.id);
    const other = await viewerOf(t, bob.id);
    const own = await createTestPost(t, me, { text: "My lamp for sale", files: [await pngFile()] });
    const bobs = await createTestPost(t, other, { text: "Bob's secret desk" });
    await createTestComment(t, me, bobs.id, { text: "Is it oak?" });
    await createTestComment(t, other, own.id, { text: "Bob's private reply" });
    await toggleSave(t.ctx, me, bobs.id);
    await recordSearch(t.ctx, me, { campusId: "ou", text: "lamp" });
    const chat = await startConversation(t.ctx, me, { recipientId: bob.id, text: "Hi Bob, still selling?" });
    await sendMessage(t.ctx, other, chat.chatId, { text: "Yes, come by" });
    // Decision 0615: a trade both reviewed; each private note is its subject's only.
    const deal = await createCompletedDeal(t, { seller: bob, buyer: alice });
    await writeReview(t.ctx, me, {
      dealId: deal.dealId,
      stars: 4,
      publicText: "Good desk",
      privateNote: "Alice's note to Bob",
    });
    await writeReview(t.ctx, other, {
      dealId: deal.dealId,
      stars: 5,
      publicText: "Paid fast",
      privateNote: "Bob's note to Alice",
    });

    await requestDataExport(t.ctx, me);
    expect((await getDataExportState(t.ctx, me)).status).toBe("pending");
    await expect(requestDataExport(t.ctx, me)).rejects.toMatchObject({ code: "export-pending" });
    await runDataExportsRound(t.ctx);
    expect((await getDataExportState(t.ctx, me)).status).toBe("ready");
    // A notification leads to the data page; the link itself is only in the e-mail.
    const notices = await listNotifications(t.ctx, me);
    expect(notices.items.find((item) => item.type === "data export")).toMatchObject({
      type: "data export",
      actors: [],
      text: "Your data is ready to download: the link is in the e-mail we sent you.",
      href: "/settings/account/data",
    });
    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.userId, alice.id));
    const token = await linkToken(alice.email);
    // Only the token's hash is kept.
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.tokenHash).not.toContain(token);

    const opened = await openDataExport(t.ctx, me, token);
    const files = await readZip(opened.path);
    const names = [...files.keys()];
    for (const name of [
      "README.txt",
      "profile.json",
      "settings.json",
      "posts.json",
      "comments.json",
      "conversations.json",
      "messages.json",
      "saves.json",
      "searches.json",
      "notifications.json",
      "reviews.json",
      "ads.json",
      "payments.json",
      "moderation.json",
    ]) {
      expect(names, name).toContain(name);
    }
    const json = (name: string) => JSON.parse(files.get(name)?.toString("utf8") ?? "null");
    expect(json("profile.json")).toMatchObject({ id: alice.id, email: alice.email, first_name: "Alice" });
    // Decision 0680: the class year and when the badge's 12 months started.
    expect(json("profile.json")).toMatchObject({ grad_year: 2027, school_verified_at: expect.any(String) });
    const posts = json("posts.json");
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ id: own.id, text: "My lamp for sale" });
    const photo = posts[0].media[0].file as string;
    expect(files.get(photo)?.length).toBeGreaterThan(0);
    expect(json("comments.json")).toMatchObject([{ text: "Is it oak?", replied_to: bobs.id }]);
    expect(json("saves.json").saved).toMatchObject([{ post_id: bobs.id }]);
    expect(json("searches.json")).toMatchObject([{ search_text: "lamp" }]);
    expect(json("messages.json").map((m: { sender: string; text: string }) => [m.sender, m.text])).toEqual([
      ["me", "Hi Bob, still selling?"],
      ["them", "Yes, come by"],
    ]);
    expect(json("reviews.json")).toMatchObject({
      written: [{ stars: 4, public_text: "Good desk", subject_role: "seller" }],
      received: [
        { stars: 5, public_text: "Paid fast", private_note: "Bob's note to Alice", my_role: "buyer" },
      ],
    });
    expect(json("reviews.json").written[0]).not.toHaveProperty("private_note");
    // Nothing of Bob's but the message he sent her.
    const everything = [...files.values()].map((bytes) => bytes.toString("utf8")).join("\n");
    expect(everything).not.toContain("Bob's secret desk");
    expect(everything).not.toContain("Bob's private reply");
    expect(everything).not.toContain("Alice's note to Bob");
    expect(everything).not.toContain(bob.email);
  });

  it("opens once, for its owner only, and not after 7 days; the job then deletes the file", async () => {
    const student = await createTestMember(t);
    const me = await viewerOf(t, student.id);
    await requestDataExport(t.ctx, me);
    await runDataExportsRound(t.ctx);
    const token = await linkToken(student.email);
    const [row] = await t.ctx.db.select().from(dataExports).where(eq(dataExports.userId, student.id));
    const file = path.join(dataDir, "exports", row?.file ?? "none");
    expect(existsSync(file)).toBe(true);

    // Another account, a made-up token: the ordinary 404.
    await expect(openDataExport(t.ctx, alice.viewer, token)).rejects.toMatchObject({ code: "not-found" });
    await expect(openDataExport(t.ctx, me, "x".repeat(43))).rejects.toMatchObject({ code: "not-found" });
    await openDataExport(t.ctx, me, token);
    await expect(openDataExport(t.ctx, me, token)).rejects.toMatchObject({ code: "not-found" });
    expect((await getDataExportState(t.ctx, me)).status).toBe("downloaded");
    await runDataExportsRound(t.ctx);
    expect(existsSync(file)).toBe(false);

    // One a day: a second request the same day is refused, the next day accepted; its link expires.
    await expect(requestDataExport(t.ctx, me)).rejects.toMatchObject({ code: "rate-limited" });
    t.clock.advance(DAY_MS + 1000);
    await requestDataExport(t.ctx, me);
    await runDataExportsRound(t.ctx);
    const second = await linkToken(student.email);
    t.clock.advance(7 * DAY_MS + 1000);
    expect((await getDataExportState(t.ctx, me)).status).toBe("expired");
    await expect(openDataExport(t.ctx, me, second)).rejects.toMatchObject({ code: "not-found" });
    await runDataExportsRound(t.ctx);
    const rows = await t.ctx.db.select().from(dataExports).where(eq(dataExports.userId, student.id));
    expect(rows.every((each) => each.file === null)).toBe(true);
  });
});
