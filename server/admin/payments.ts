import { randomBytes } from "node:crypto";
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { stopAdRow } from "../ads/lifecycle";
import { processPendingRefunds, recordRefund, refundUnusedDays } from "../ads/refunds";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { isUuid } from "../db/ids";
import { ads, checkoutSessions, payments, user } from "../db/schema";
import { appendModerationLog } from "../staff/moderation-log";
import { requireSiteAdmin } from "../staff/roles";
import { parseInput } from "../validation";
import { ADMIN_MESSAGES, AdminError, adminNotFound, invalidAdminInput } from "./errors.shared";
import { getLedger } from "./ledger";
import { type AdminSession, requireRecentSignIn } from "./reauth";
import { type RefundAdInput, refundAdSchema } from "./schemas.shared";

/** Decision 0564: rows per list on /admin/payments. */
export const PAYMENTS_PAGE_SIZE = 25;

/** A fresh key for one refund form (decision 0560): 32 hex characters. */
export function newRefundKey(): string {
  return randomBytes(16).toString("hex");
}

/** A keyset cursor: the last row's time and id, as `ISO_id` in the page's address. */
function parseCursor(raw: unknown): { at: Date; id: string } | null {
  if (typeof raw !== "string" || raw.length > 120) return null;
  const cut = raw.indexOf("_");
  const at = new Date(raw.slice(0, cut));
  const id = raw.slice(cut + 1);
  if (cut < 0 || Number.isNaN(at.getTime()) || !/^[A-Za-z0-9-]{1,80}$/.test(id)) return null;
  return { at, id };
}

function cursorOf(row: { createdAt: Date; id: string } | undefined): string | null {
  return row ? `${row.createdAt.toISOString()}_${row.id}` : null;
}

function page<T extends { createdAt: Date; id: string }>(rows: T[]) {
  const more = rows.length > PAYMENTS_PAGE_SIZE;
  const shown = more ? rows.slice(0, PAYMENTS_PAGE_SIZE) : rows;
  return { rows: shown, next: more ? cursorOf(shown.at(-1)) : null };
}

function before(column: { createdAt: unknown; id: unknown }, cursor: { at: Date; id: string } | null) {
  if (!cursor) return undefined;
  const c = column as { createdAt: typeof payments.createdAt; id: typeof payments.id };
  return or(lt(c.createdAt, cursor.at), and(eq(c.createdAt, cursor.at), lt(c.id, cursor.id)));
}

export interface PaymentsPageQuery {
  ads?: unknown;
  payments?: unknown;
  checkouts?: unknown;
}

/**
 * Decision 0564: /admin/payments: the ads with their states and a refund form each (its key made
 * now, decision 0560), the payments and refunds, the checkouts, each newest first and paged by
 * keyset, and the ledger of decision 0565.
 */
export async function getPaymentsPage(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  query: PaymentsPageQuery = {},
) {
  await requireSiteAdmin(ctx, viewer);
  const take = PAYMENTS_PAGE_SIZE + 1;
  const [adRows, paymentRows, checkoutRows, ledger] = await Promise.all([
    ctx.db
      .select({
        id: ads.id,
        title: ads.title,
        status: ads.status,
        days: ads.days,
        amountBudgeted: ads.amountBudgeted,
        amountRefunded: ads.amountRefunded,
        paymentId: ads.paymentId,
        campusId: ads.campusId,
        userId: ads.userId,
        username: user.username,
        createdAt: ads.createdAt,
      })
      .from(ads)
      .innerJoin(user, eq(user.id, ads.userId))
      .where(and(sql`${ads.status} <> 'checkout'`, before(ads, parseCursor(query.ads))))
      .orderBy(desc(ads.createdAt), desc(ads.id))
      .limit(take),
    ctx.db
      .select({
        id: payments.id,
        kind: payments.kind,
        status: payments.status,
        amount: payments.amount,
        provider: payments.provider,
        description: payments.description,
        adId: payments.adId,
        userId: payments.userId,
        username: user.username,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .innerJoin(user, eq(user.id, payments.userId))
      .where(before(payments, parseCursor(query.payments)))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(take),
    ctx.db
      .select({
        id: checkoutSessions.id,
        provider: checkoutSessions.provider,
        status: checkoutSessions.status,
        amountTotal: checkoutSessions.amountTotal,
        adId: checkoutSessions.adId,
        createdAt: checkoutSessions.createdAt,
      })
      .from(checkoutSessions)
      .where(before(checkoutSessions, parseCursor(query.checkouts)))
      .orderBy(desc(checkoutSessions.createdAt), desc(checkoutSessions.id))
      .limit(take),
    getLedger(ctx),
  ]);
  const adsPage = page(adRows);
  return {
    ads: {
      ...adsPage,
      rows: adsPage.rows.map((ad) => ({
        ...ad,
        refundable: ad.paymentId !== null && ad.amountRefunded < ad.amountBudgeted,
        refundKey: newRefundKey(),
      })),
    },
    payments: page(paymentRows),
    checkouts: page(checkoutRows),
    ledger,
  };
}

/** A refund as the console shows it after a click, the first one's on a replay. */
export interface ConsoleRefund {
  refundId: string;
  amount: number;
  createdAt: Date;
  /** True when the key had been used: nothing changed this time. */
  replayed: boolean;
}

async function refundByKey(db: Queryable, key: string, adId: string): Promise<ConsoleRefund | null> {
  const [row] = await db
    .select({ id: payments.id, amount: payments.amount, createdAt: payments.createdAt, adId: payments.adId })
    .from(payments)
    .where(eq(payments.idempotencyKey, key))
    .limit(1);
  if (!row) return null;
  // A key is its form's: one used for another ad is nobody's refund here.
  if (row.adId !== adId) throw adminNotFound();
  return { refundId: row.id, amount: row.amount, createdAt: row.createdAt, replayed: true };
}

/**
 * Decision 0560: a site admin refunds an ad in full (all not yet given back) or its unused days,
 * once per form: the key the page issued is stored on the refund row (unique), so a second click
 * or a replayed request answers with the first refund and changes nothing. A running or paused ad
 * stops. The refund row is written by server/ads/refunds.ts like every other and sent by
 * processPendingRefunds after the commit. Destructive: decision 0563's recent sign-in.
 */
export async function refundAd(
  ctx: AppContext,
  viewer: Pick<Viewer, "id"> | null,
  input: RefundAdInput,
  own: AdminSession,
): Promise<ConsoleRefund> {
  const admin = await requireSiteAdmin(ctx, viewer);
  // A crafted ad id is a missing ad: the 404, not a form's message.
  if (typeof input.adId !== "string" || !isUuid(input.adId)) throw adminNotFound();
  const value = parseInput(refundAdSchema, input, invalidAdminInput);
  const first = await refundByKey(ctx.db, value.idempotencyKey, value.adId);
  if (first) return first;
  await requireRecentSignIn(ctx, admin.id, { sessionToken: own.token, password: value.password });
  const now = ctx.clock.now();
  let refund: ConsoleRefund;
  try {
    refund = await ctx.db.transaction(async (tx) => {
      const [ad] = await tx.select().from(ads).where(eq(ads.id, value.adId)).limit(1).for("update");
      if (!ad) throw adminNotFound();
      // A click that waited on the ad's lock behind one with the same key: the first one's refund.
      const earlier = await refundByKey(tx, value.idempotencyKey, ad.id);
      if (earlier) return earlier;
      if (!ad.paymentId) throw new AdminError("nothing-to-refund", ADMIN_MESSAGES.adNotRefundable);
      const running = ad.status === "active" || ad.status === "paused";
      const description = "Refund by the site's staff";
      const options = { idempotencyKey: value.idempotencyKey };
      const amount =
        value.mode === "full"
          ? await recordRefund(
              ctx,
              tx,
              ad,
              ad.amountBudgeted - ad.amountRefunded,
              now,
              `${description} (in full)`,
              options,
            )
          : await refundUnusedDays(ctx, tx, ad, now, description, options);
      if (amount <= 0) throw new AdminError("nothing-to-refund", ADMIN_MESSAGES.nothingToRefund);
      if (running) await stopAdRow(tx, ad, now);
      const [row] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(eq(payments.idempotencyKey, value.idempotencyKey))
        .limit(1);
      await appendModerationLog(tx, {
        campusId: ad.campusId,
        actorId: admin.id,
        source: "staff",
        actorRole: "site_admin",
        action: "refund",
        targetKind: "ad",
        targetId: ad.id,
        targetUserId: ad.userId,
        details: { amount, mode: value.mode, refundId: row?.id, stopped: running },
        at: now,
      });
      return { refundId: row?.id ?? "", amount, createdAt: now, replayed: false };
    });
  } catch (error) {
    // Two clicks at once: the second insert met the first's key; answer with the first.
    if (!isUniqueViolation(error, "payments_idempotency_unique")) throw error;
    const replay = await refundByKey(ctx.db, value.idempotencyKey, value.adId);
    if (!replay) throw error;
    return replay;
  }
  ctx.onAdsChanged?.();
  await processPendingRefunds(ctx);
  return refund;
}
