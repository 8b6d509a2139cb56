import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, type TestMember } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { DAY_MS } from "../ads/refunds";
import { payments } from "../db/schema";
import type { BalanceTotals, Payments } from "../payments/payments";
import { getLedger, LEDGER_TEXTS } from "./ledger";

/**
 * Decision 0565: Stripe's side of the ledger, read through the payments seam when Stripe is
 * configured. The seam here is the test checkout dressed as Stripe, its balance answered by the
 * test (the seam's own paging is tested against a stub of the API in server/payments).
 */
let t: TestContext;
let student: TestMember;
beforeAll(async () => {
  t = await createTestContext();
  student = await createTestMember(t);
});
afterAll(() => t.close());

function asStripe(balanceTotals: Payments["balanceTotals"]) {
  const seam: Payments = { ...t.ctx.payments, provider: "stripe", balanceTotals };
  return { ...t.ctx, payments: seam };
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

describe("Stripe's totals beside our books (decision 0565)", () => {
  let today: string;
  let yesterday: string;
  beforeAll(async () => {
    const now = t.clock.now();
    today = dayOf(now);
    yesterday = dayOf(new Date(now.getTime() - DAY_MS));
    const row = { userId: student.id, campusId: "ou", provider: "stripe" as const, description: "Boost" };
    await t.ctx.db.insert(payments).values([
      { ...row, kind: "payment", amount: 1500, createdAt: now },
      { ...row, kind: "refund", amount: 500, createdAt: now },
      { ...row, kind: "payment", amount: 2000, createdAt: new Date(now.getTime() - DAY_MS) },
    ]);
  });

  it("while Stripe is not configured: our books' days, 'Not fetched', and the line saying why", async () => {
    const ledger = await getLedger(t.ctx);
    expect(ledger.stripe).toEqual([
      { day: today, ledger: 1000, provider: null },
      { day: yesterday, ledger: 2000, provider: null },
    ]);
    expect(ledger.stripeNote).toBe(LEDGER_TEXTS.notFetched);
    expect(ledger.stripeFailed).toBe(false);
  });

  it("fetched for the shown days: each day beside Stripe's, a day only Stripe has included", async () => {
    let asked: { since: Date; until: Date } | null = null;
    const ledger = await getLedger(
      asStripe(async (window) => {
        asked = window;
        return {
          byDay: { [today]: 1000, [yesterday]: 1500, "2000-01-01": 99 },
          transactions: 4,
          partial: false,
          oldestDay: yesterday,
        } satisfies BalanceTotals;
      }),
    );
    expect(asked).toEqual({ since: ledger.since, until: new Date(ledger.since.getTime() + 30 * DAY_MS) });
    expect(ledger.stripe).toEqual([
      { day: today, ledger: 1000, provider: 1000 },
      { day: yesterday, ledger: 2000, provider: 1500 },
      { day: "2000-01-01", ledger: 0, provider: 99 },
    ]);
    expect(ledger.stripeNote).toBeNull();
  });

  it("at the page bound: 'More than 500 transactions: partial', the days it cut short marked", async () => {
    const ledger = await getLedger(
      asStripe(async () => ({
        byDay: { [today]: 1000 },
        transactions: 500,
        partial: true,
        oldestDay: today,
      })),
    );
    expect(ledger.stripeNote).toBe("More than 500 transactions: partial");
    expect(ledger.stripe).toEqual([
      { day: today, ledger: 1000, provider: 1000, partial: true },
      { day: yesterday, ledger: 2000, provider: 0, partial: true },
    ]);
  });

  it("when Stripe fails: an error line and 'Not fetched', never the page's error", async () => {
    const ledger = await getLedger(
      asStripe(async () => {
        throw new Error("Stripe is down");
      }),
    );
    expect(ledger.stripeFailed).toBe(true);
    expect(ledger.stripeNote).toBe(LEDGER_TEXTS.failed);
    expect(ledger.stripe.map((day) => day.provider)).toEqual([null, null]);
    // The test checkout's side is still read.
    expect(ledger.test).toEqual([]);
  });
});
