import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { AppContext } from "../context";
import { mailOutbox } from "../db/schema";
import { APP_JOBS, DELIVER_MAIL_JOB } from "../jobs/jobs";
import { startJobs } from "../jobs/registry";
import {
  CLAIM_LEASE_MS,
  countMailSince,
  deliverDueMail,
  enqueueMail,
  listRecentMail,
  MAX_DELIVERY_ATTEMPTS,
  type MailToQueue,
  retryDelayMs,
} from "./outbox";
import { createRecordingTransport, type OutgoingMail } from "./transport";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());
beforeEach(async () => {
  // Each test reads the whole outbox: start it empty.
  await t.ctx.db.delete(mailOutbox);
  t.mail.sent.length = 0;
  t.mail.failing = false;
});

let counter = 0;
function aMail(overrides: Partial<MailToQueue> = {}): MailToQueue {
  counter++;
  return {
    campusId: "ou",
    kind: "notification",
    to: `student-${counter}@example.com`,
    subject: `Hello number ${counter}`,
    html: "<p>Hello</p>",
    text: "Hello",
    ...overrides,
  };
}

async function rowFor(to: string) {
  const [row] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to.toLowerCase()));
  if (!row) throw new Error(`no outbox row for ${to}`);
  return row;
}

describe("enqueueMail and deliverDueMail", () => {
  it("keeps a queued mail until the worker delivers it, exactly once", async () => {
    const mail = aMail({ to: "Jamie.Rivera@Example.com" });
    await t.ctx.db.transaction((tx) => enqueueMail(tx, mail, t.clock.now()));

    const queued = await rowFor("jamie.rivera@example.com");
    expect(queued).toMatchObject({ status: "pending", attempts: 0, to: "jamie.rivera@example.com" });
    expect(t.mail.sent).toHaveLength(0);

    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(t.mail.sent).toEqual([
      { to: "jamie.rivera@example.com", subject: mail.subject, html: mail.html, text: mail.text },
    ]);
    const delivered = await rowFor("jamie.rivera@example.com");
    expect(delivered).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(delivered.sentAt).toEqual(t.clock.now());

    t.clock.advance(CLAIM_LEASE_MS * 2);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(t.mail.sent).toHaveLength(1);
  });

  it("writes nothing when the transaction that causes the mail rolls back", async () => {
    const mail = aMail();
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await enqueueMail(tx, mail, t.clock.now());
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await t.ctx.db.select().from(mailOutbox)).toHaveLength(0);
    await deliverDueMail(t.ctx);
    expect(t.mail.sent).toHaveLength(0);
  });

  it("retries a failed delivery with exponential back-off", async () => {
    const mail = aMail();
    await enqueueMail(t.ctx.db, mail, t.clock.now());
    t.mail.failing = true;

    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    let row = await rowFor(mail.to);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "SMTP server unavailable" });
    expect(row.nextAttemptAt.getTime() - t.clock.now().getTime()).toBe(5_000);

    // Not due yet: nothing happens before the back-off ends.
    t.clock.advance(4_999);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });

    t.clock.advance(1);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    row = await rowFor(mail.to);
    expect(row.attempts).toBe(2);
    expect(row.nextAttemptAt.getTime() - t.clock.now().getTime()).toBe(10_000);

    t.mail.failing = false;
    t.clock.advance(10_000);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(t.mail.sent.map((sent) => sent.to)).toEqual([mail.to]);
    expect(await rowFor(mail.to)).toMatchObject({ status: "sent", attempts: 3, lastError: null });
  });

  it("doubles the delay up to half an hour", () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(12)).toBe(30 * 60_000);
    expect(retryDelayMs(50)).toBe(30 * 60_000);
  });

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} attempts`, async () => {
    const mail = aMail();
    await enqueueMail(t.ctx.db, mail, t.clock.now());
    t.mail.failing = true;
    for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS; attempt++) {
      expect(await deliverDueMail(t.ctx)).toMatchObject({ retrying: 1, failed: 0 });
      t.clock.advance(retryDelayMs(attempt));
    }
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(await rowFor(mail.to)).toMatchObject({ status: "failed", attempts: MAX_DELIVERY_ATTEMPTS });

    // A failed mail stays failed, even once the server is back.
    t.mail.failing = false;
    t.clock.advance(60 * 60_000);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(t.mail.sent).toHaveLength(0);
  });
});

describe("code mail expiry (spec 1 §5: codes are good for two hours)", () => {
  it("stops retrying a code mail once its code has expired", async () => {
    const mail = aMail({ kind: "verification-code", expiresAt: new Date(t.clock.now().getTime() + 60_000) });
    await enqueueMail(t.ctx.db, mail, t.clock.now());
    t.mail.failing = true;

    // Attempts at 0 s, 5 s, 15 s and 35 s; the next would be at 75 s, after the code expired.
    for (const wait of [5_000, 10_000, 20_000]) {
      expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 1, failed: 0 });
      t.clock.advance(wait);
    }
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(await rowFor(mail.to)).toMatchObject({ status: "failed", attempts: 4 });

    t.mail.failing = false;
    t.clock.advance(10 * 60_000);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(t.mail.sent).toHaveLength(0);
  });

  it("never sends a code mail that expired while it waited in the outbox", async () => {
    const mail = aMail({ kind: "verification-code", expiresAt: new Date(t.clock.now().getTime() + 60_000) });
    await enqueueMail(t.ctx.db, mail, t.clock.now());
    t.clock.advance(60_000);

    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(t.mail.sent).toHaveLength(0);
    expect(await rowFor(mail.to)).toMatchObject({
      status: "failed",
      lastError: "expired before it could be delivered",
    });
  });

  it("delivers a code mail whose code is still valid", async () => {
    const mail = aMail({ kind: "verification-code", expiresAt: new Date(t.clock.now().getTime() + 60_000) });
    await enqueueMail(t.ctx.db, mail, t.clock.now());
    t.clock.advance(59_999);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
  });
});

describe("several workers on one outbox (at least once, FOR UPDATE SKIP LOCKED)", () => {
  it("does not send a mail twice when two workers run at the same time", async () => {
    const mails = Array.from({ length: 12 }, () => aMail());
    await t.ctx.db.transaction(async (tx) => {
      for (const mail of mails) await enqueueMail(tx, mail, t.clock.now());
    });

    const rounds = await Promise.all([deliverDueMail(t.ctx, 8), deliverDueMail(t.ctx, 8)]);
    const again = await deliverDueMail(t.ctx, 8);

    const total = [...rounds, again].reduce((sum, round) => sum + round.sent, 0);
    expect(total).toBe(12);
    const recipients = t.mail.sent.map((mail) => mail.to).sort();
    expect(recipients).toEqual(mails.map((mail) => mail.to).sort());
    const rows = await t.ctx.db.select().from(mailOutbox);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("sends again after the lease when a worker died between sending and recording", async () => {
    const mail = aMail();
    await enqueueMail(t.ctx.db, mail, t.clock.now());

    // The first worker claims the mail and hangs inside the SMTP conversation.
    let hung: (() => void) | undefined;
    const stalled: AppContext = {
      ...t.ctx,
      mail: {
        kind: "recording",
        send: () =>
          new Promise<void>((resolve) => {
            hung = resolve;
          }),
      },
    };
    const firstRound = deliverDueMail(stalled);
    while (!hung) await new Promise((resolve) => setTimeout(resolve, 5));

    // Within the lease another worker leaves it alone…
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    // …after it, the mail counts as undelivered and goes out again (at least once).
    t.clock.advance(CLAIM_LEASE_MS);
    expect(await deliverDueMail(t.ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(t.mail.sent.map((sent) => sent.to)).toEqual([mail.to]);

    hung?.();
    expect(await firstRound).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await rowFor(mail.to)).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("countMailSince (the cap on code mails per address)", () => {
  it("counts the mails of the given kinds to one address within the window", async () => {
    const to = "Counted@Example.com";
    const start = t.clock.now();
    await enqueueMail(t.ctx.db, aMail({ to, kind: "verification-code" }), t.clock.now());
    t.clock.advance(10 * 60_000);
    await enqueueMail(t.ctx.db, aMail({ to, kind: "verification-code" }), t.clock.now());
    await enqueueMail(t.ctx.db, aMail({ to, kind: "password-reset" }), t.clock.now());
    await enqueueMail(t.ctx.db, aMail({ to: "other@example.com", kind: "verification-code" }), t.clock.now());

    expect(await countMailSince(t.ctx.db, "counted@example.com", ["verification-code"], start)).toBe(2);
    expect(await countMailSince(t.ctx.db, to, ["verification-code", "password-reset"], start)).toBe(3);
    const later = new Date(start.getTime() + 60_000);
    expect(await countMailSince(t.ctx.db, to, ["verification-code"], later)).toBe(1);
    expect(await countMailSince(t.ctx.db, to, ["magic-link"], start)).toBe(0);
  });
});

describe("listRecentMail (/dev/mail)", () => {
  it("lists the newest mail first with its text, status and attempts", async () => {
    const first = aMail({ text: "first body" });
    const second = aMail({ text: "second body" });
    await enqueueMail(t.ctx.db, first, t.clock.now());
    t.clock.advance(1_000);
    await enqueueMail(t.ctx.db, second, t.clock.now());
    await deliverDueMail(t.ctx);

    const listed = await listRecentMail(t.ctx.db);
    expect(listed.map((mail) => [mail.to, mail.text, mail.status, mail.attempts])).toEqual([
      [second.to, "second body", "sent", 1],
      [first.to, "first body", "sent", 1],
    ]);
    expect(await listRecentMail(t.ctx.db, 1)).toHaveLength(1);
  });
});

/** The deliver-mail job alone, from the app's job table, on a timer that never fires in the test. */
function startMailJob(ctx: AppContext, everyMs: number) {
  const job = APP_JOBS.find((each) => each.name === DELIVER_MAIL_JOB);
  if (!job) throw new Error("no deliver-mail job");
  const jobs = startJobs(ctx, [{ ...job, everyMs }]);
  return { wake: () => jobs.wake(DELIVER_MAIL_JOB), stop: () => jobs.stop() };
}

describe("the deliver-mail job (decision 0480)", () => {
  it("delivers at once when woken, and stops cleanly", async () => {
    const mail = createRecordingTransport();
    const ctx: AppContext = { ...t.ctx, mail, clock: { now: () => new Date() } };
    const worker = startMailJob(ctx, 60_000);
    const queued = aMail();
    await enqueueMail(ctx.db, queued, new Date());
    worker.wake();

    const deadline = Date.now() + 5_000;
    while (mail.sent.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();
    expect(mail.sent.map((sent: OutgoingMail) => sent.to)).toEqual([queued.to]);

    // Stopped: a new mail stays in the outbox.
    const later = aMail();
    await enqueueMail(ctx.db, later, new Date());
    worker.wake();
    await new Promise((r) => setTimeout(r, 50));
    expect(mail.sent).toHaveLength(1);
    expect(await rowFor(later.to)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("drains more than one batch in a single wake-up", async () => {
    const mail = createRecordingTransport();
    const ctx: AppContext = { ...t.ctx, mail, clock: { now: () => new Date() } };
    const mails = Array.from({ length: 25 }, () => aMail());
    await t.ctx.db.transaction(async (tx) => {
      for (const queued of mails) await enqueueMail(tx, queued, new Date(Date.now() - 1_000));
    });
    const worker = startMailJob(ctx, 60_000);
    const deadline = Date.now() + 10_000;
    while (mail.sent.length < 25 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();
    expect(mail.sent).toHaveLength(25);
  });
});
