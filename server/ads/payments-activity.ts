import { desc, eq } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { payments } from "../db/schema";

export interface PaymentActivity {
  id: string;
  kind: "payment" | "refund";
  status: "succeeded" | "pending";
  amount: number;
  description: string;
  adId: string | null;
  testMode: boolean;
  createdAt: Date;
}

/** Rows of Payment Activity shown (the most recent). */
export const PAYMENT_ACTIVITY_LIMIT = 50;

/** spec 1 §2 '/settings/payments … Payment Activity list': the viewer's payments and refunds, newest first. */
export async function listPayments(ctx: AppContext, viewer: Viewer): Promise<PaymentActivity[]> {
  const rows = await ctx.db
    .select()
    .from(payments)
    .where(eq(payments.userId, viewer.id))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(PAYMENT_ACTIVITY_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    amount: row.amount,
    description: row.description,
    adId: row.adId,
    testMode: row.provider === "test",
    createdAt: row.createdAt,
  }));
}
