import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SmtpSink, startSmtpSink } from "../../tests/e2e/support/smtp-sink";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import type { AppContext } from "../context";
import { mailOutbox } from "../db/schema";
import { deliverDueMail, enqueueMail } from "./outbox";
import { renderMail } from "./render";
import { VerificationCodeEmail } from "./templates/verification-code";
import { createSmtpTransport, type MailTransport } from "./transport";

// The outbox against a real SMTP server (smtp-server): what the app does with SMTP_URL set.
let t: TestContext;
let sink: SmtpSink;
let transport: MailTransport;
let ctx: AppContext;

beforeAll(async () => {
  t = await createTestContext();
  sink = await startSmtpSink();
  transport = createSmtpTransport(sink.url, "Campus Buy Sell <no-reply@localhost>");
  ctx = { ...t.ctx, mail: transport };
});
afterAll(async () => {
  transport.close?.();
  await sink.close();
  await t.close();
});
beforeEach(async () => {
  await t.ctx.db.delete(mailOutbox);
  sink.rejecting = false;
  sink.rejected = 0;
});

async function queueCode(to: string, code: number) {
  const { html, text } = await renderMail(
    <VerificationCodeEmail code={code} campusName="OU" purpose="verify your e-mail" />,
  );
  await enqueueMail(
    ctx.db,
    {
      campusId: "ou",
      kind: "verification-code",
      to,
      subject: "Your Campus Buy Sell verification code",
      html,
      text,
      expiresAt: new Date(ctx.clock.now().getTime() + 2 * 60 * 60_000),
    },
    ctx.clock.now(),
  );
}

function receivedBy(to: string) {
  return sink.messages.filter((mail) => mail.to.includes(to));
}

async function statusOf(to: string) {
  const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
  if (!row) throw new Error(`no outbox row for ${to}`);
  return row;
}

describe("delivery over SMTP", () => {
  it("delivers a code mail with the code readable in its text", async () => {
    await queueCode("jamie@example.com", 5307);
    expect(await deliverDueMail(ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });

    const [mail, ...others] = receivedBy("jamie@example.com");
    expect(others).toHaveLength(0);
    expect(mail?.subject).toBe("Your Campus Buy Sell verification code");
    expect(mail?.from).toBe("no-reply@localhost");
    expect(mail?.text.match(/\b(\d{4})\b/)?.[1]).toBe("5307");
    expect(mail?.html).toContain("5307");
    expect(await statusOf("jamie@example.com")).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("retries after the SMTP server refused the message, and delivers it once it recovers", async () => {
    sink.rejecting = true;
    await queueCode("retry@example.com", 8142);

    // First round: the server answers 451; the failure is recorded and a retry scheduled.
    expect(await deliverDueMail(ctx)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    expect(sink.rejected).toBe(1);
    let row = await statusOf("retry@example.com");
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.lastError).toContain("451");
    expect(row.nextAttemptAt.getTime()).toBe(t.clock.now().getTime() + 5_000);

    // The server recovers, but the mail waits for its back-off.
    sink.rejecting = false;
    expect(await deliverDueMail(ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receivedBy("retry@example.com")).toHaveLength(0);

    t.clock.advance(5_000);
    expect(await deliverDueMail(ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    row = await statusOf("retry@example.com");
    expect(row).toMatchObject({ status: "sent", attempts: 2, lastError: null });

    t.clock.advance(60 * 60_000);
    expect(await deliverDueMail(ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    const received = receivedBy("retry@example.com");
    expect(received).toHaveLength(1);
    expect(received[0]?.text).toContain("8142");
  });

  it("retries while the SMTP server is down, and delivers once it is back", async () => {
    const port = sink.port;
    await sink.close();
    try {
      await queueCode("down@example.com", 2468);
      expect(await deliverDueMail(ctx)).toEqual({ sent: 0, retrying: 1, failed: 0 });
      const row = await statusOf("down@example.com");
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      sink = await startSmtpSink({ port });
    }
    t.clock.advance(5_000);
    expect(await deliverDueMail(ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(receivedBy("down@example.com")).toHaveLength(1);
  });

  it("stops retrying a code mail no later than its code expires, and never sends it after", async () => {
    sink.rejecting = true;
    await queueCode("expired@example.com", 9051);
    const expiresAt = t.clock.now().getTime() + 2 * 60 * 60_000;
    let rounds = 0;
    while ((await statusOf("expired@example.com")).status === "pending" && rounds < 50) {
      await deliverDueMail(ctx);
      rounds++;
      const row = await statusOf("expired@example.com");
      if (row.status === "pending") t.clock.set(row.nextAttemptAt);
    }
    const row = await statusOf("expired@example.com");
    expect(row.status).toBe("failed");
    // It stopped without ever trying after the code's expiry.
    expect(t.clock.now().getTime()).toBeLessThan(expiresAt);

    sink.rejecting = false;
    t.clock.set(new Date(expiresAt + 60_000));
    expect(await deliverDueMail(ctx)).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receivedBy("expired@example.com")).toHaveLength(0);
  });
});
