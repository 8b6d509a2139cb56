import { desc, eq } from "drizzle-orm";
import { moderationLog, session } from "../../server/db/schema";
import type { TestContext } from "./test-context";

/**
 * The operator console's tests (decisions 0560-0565): the request's own session as decision 0563
 * reads it, signed in `minutesAgo` by the test clock.
 */
export async function ownSession(t: TestContext, userId: string, minutesAgo = 1): Promise<{ token: string }> {
  const [row] = await t.ctx.db
    .select({ id: session.id, token: session.token })
    .from(session)
    .where(eq(session.userId, userId))
    .limit(1);
  if (!row) throw new Error(`no session of ${userId}`);
  await t.ctx.db
    .update(session)
    .set({ createdAt: new Date(t.clock.now().getTime() - minutesAgo * 60_000) })
    .where(eq(session.id, row.id));
  return { token: row.token };
}

/** The newest moderation log rows about a student or a campus. */
export async function consoleLog(t: TestContext, where: { targetId: string }) {
  return t.ctx.db
    .select()
    .from(moderationLog)
    .where(eq(moderationLog.targetId, where.targetId))
    .orderBy(desc(moderationLog.createdAt), desc(moderationLog.id));
}
