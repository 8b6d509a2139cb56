import { and, eq, gte, isNotNull, sql } from "drizzle-orm";
import { DAY_MS } from "../ads/refunds";
import type { AppContext } from "../context";
import { checkoutSessions, payments } from "../db/schema";
import { BALANCE_MAX_PAGES, BALANCE_PAGE_SIZE, type BalanceTotals } from "../payments/payments";

/** Decision 0565: the ledger's days, the newest first. */
export const LEDGER_DAYS = 30;

/** One day of the ledger (decision 0565), in cents. */
export interface LedgerDay {
  day: string;
  /** Our books: payments less refunds (pending ones included: they are owed). */
  ledger: number;
  /** The provider's records, or null when not fetched. */
  provider: number | null;
  /** Stripe's page bound cut this day's transactions short (decision 0565). */
  partial?: true;
}

type LedgerContext = Pick<AppContext, "db" | "clock" | "payments" | "log">;

/** Decision 0565: what the page says about Stripe's side, beside its rows. */
export const LEDGER_TEXTS = {
  notFetched:
    "Stripe's totals are not fetched while Stripe is not configured: compare these days with the Stripe Dashboard's Balance report (decision 0565).",
  partial: (count: number) => `More than ${count} transactions: partial`,
  failed:
    "Stripe's totals could not be fetched just now: try again later, or compare with the Stripe Dashboard's Balance report.",
};

/** Stripe's side: fetched only when Stripe is configured; its failure is a line, never the page's error. */
async function stripeTotals(ctx: LedgerContext, since: Date, until: Date) {
  if (ctx.payments.provider !== "stripe" || !ctx.payments.balanceTotals) {
    return { totals: null, note: LEDGER_TEXTS.notFetched, failed: false };
  }
  try {
    const totals = await ctx.payments.balanceTotals({ since, until });
    const note = totals.partial ? LEDGER_TEXTS.partial(BALANCE_PAGE_SIZE * BALANCE_MAX_PAGES) : null;
    return { totals, note, failed: false };
  } catch (error) {
    ctx.log.warn({ err: error }, "Stripe balance transactions not fetched");
    return { totals: null, note: LEDGER_TEXTS.failed, failed: true };
  }
}

/** Stripe lists newest first: when the bound cut the list, days from the oldest one read back are short. */
function stripeDays(books: Map<string, number>, totals: BalanceTotals | null): LedgerDay[] {
  const days = new Set(books.keys());
  for (const day of Object.keys(totals?.byDay ?? {})) days.add(day);
  return [...days]
    .sort((a, b) => (a < b ? 1 : -1))
    .map((day): LedgerDay => {
      const ledger = books.get(day) ?? 0;
      if (!totals) return { day, ledger, provider: null };
      const short = totals.partial && totals.oldestDay !== null && day <= totals.oldestDay;
      return { day, ledger, provider: totals.byDay[day] ?? 0, ...(short ? { partial: true as const } : {}) };
    });
}

/**
 * Decision 0565: per UTC day of the last 30, the sum of payments less refunds beside the
 * provider's totals. For the test checkout: its completed checkout sessions less the refunds it
 * confirmed (those with its refund id). For Stripe, when configured: its balance transactions
 * (charges less refunds) read through the payments seam, a bounded number of pages.
 */
export async function getLedger(ctx: LedgerContext) {
  const now = ctx.clock.now();
  const since = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (LEDGER_DAYS - 1) * DAY_MS);
  const until = new Date(since.getTime() + LEDGER_DAYS * DAY_MS);
  const dayOf = (column: typeof payments.createdAt) =>
    sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const signed = sql<number>`coalesce(sum(case when ${payments.kind} = 'payment' then ${payments.amount} else -${payments.amount} end), 0)::int`;
  const [books, checkouts, confirmed, stripe] = await Promise.all([
    ctx.db
      .select({ day: dayOf(payments.createdAt), provider: payments.provider, total: signed })
      .from(payments)
      .where(gte(payments.createdAt, since))
      .groupBy(sql`1`, payments.provider),
    ctx.db
      .select({
        day: dayOf(checkoutSessions.createdAt as unknown as typeof payments.createdAt),
        total: sql<number>`coalesce(sum(${checkoutSessions.amountTotal}), 0)::int`,
      })
      .from(checkoutSessions)
      .where(
        and(
          eq(checkoutSessions.provider, "test"),
          eq(checkoutSessions.status, "complete"),
          gte(checkoutSessions.createdAt, since),
        ),
      )
      .groupBy(sql`1`),
    ctx.db
      .select({
        day: dayOf(payments.createdAt),
        total: sql<number>`coalesce(sum(${payments.amount}), 0)::int`,
      })
      .from(payments)
      .where(
        and(
          eq(payments.kind, "refund"),
          eq(payments.provider, "test"),
          eq(payments.status, "succeeded"),
          isNotNull(payments.providerRef),
          gte(payments.createdAt, since),
        ),
      )
      .groupBy(sql`1`),
    stripeTotals(ctx, since, until),
  ]);
  const test = new Map<string, LedgerDay>();
  const at = (day: string) => {
    let entry = test.get(day);
    if (!entry) {
      entry = { day, ledger: 0, provider: 0 };
      test.set(day, entry);
    }
    return entry;
  };
  const stripeBooks = new Map<string, number>();
  for (const row of books) {
    if (row.provider === "test") at(row.day).ledger += row.total;
    else stripeBooks.set(row.day, (stripeBooks.get(row.day) ?? 0) + row.total);
  }
  for (const row of checkouts) at(row.day).provider = (at(row.day).provider ?? 0) + row.total;
  for (const row of confirmed) at(row.day).provider = (at(row.day).provider ?? 0) - row.total;
  return {
    since,
    test: [...test.values()].sort((a, b) => (a.day < b.day ? 1 : -1)),
    stripe: stripeDays(stripeBooks, stripe.totals),
    /** A line under Stripe's rows: not configured, partial, or failed (null when all is read). */
    stripeNote: stripe.note,
    stripeFailed: stripe.failed,
  };
}
export type Ledger = Awaited<ReturnType<typeof getLedger>>;
