import { and, eq, inArray, isNull } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { staffRoles, user } from "../db/schema";
import { grantRole, revokeRole } from "./roles";

/** What the ADMIN_EMAILS rule reads: the list, the database and the clock. */
export type ConfiguredAdminsContext = Pick<AppContext, "db" | "clock" | "config">;

const SITE_ADMIN = { role: "site_admin", campusId: null } as const;
const FROM_CONFIG = { source: "config" } as const;

/**
 * Decision 0522, at every start: every account whose verified e-mail is in ADMIN_EMAILS becomes a
 * site admin, and every site admin ADMIN_EMAILS made whose account is no longer such (the address
 * left the list, or the account changed its address) stops being one. Grants of another source
 * (the command, the seed) are never touched. Each change is logged. Safe with several processes
 * starting at once: the insert and the delete each change a row once.
 */
export async function syncConfiguredAdmins(
  ctx: ConfiguredAdminsContext,
): Promise<{ granted: number; revoked: number }> {
  const emails = ctx.config.adminEmails;
  const at = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    let granted = 0;
    let revoked = 0;
    const listed =
      emails.length === 0
        ? []
        : await tx
            .select({ id: user.id })
            .from(user)
            .where(and(inArray(user.email, [...emails]), eq(user.verified, true)));
    for (const account of listed) {
      if (await grantRole(tx, at, account.id, SITE_ADMIN, FROM_CONFIG)) granted++;
    }
    const configured = await tx
      .select({ userId: staffRoles.userId, email: user.email, verified: user.verified })
      .from(staffRoles)
      .innerJoin(user, eq(user.id, staffRoles.userId))
      .where(
        and(eq(staffRoles.role, "site_admin"), isNull(staffRoles.campusId), eq(staffRoles.source, "config")),
      );
    for (const row of configured) {
      if (row.verified && emails.includes(row.email)) continue;
      if (await revokeRole(tx, at, row.userId, SITE_ADMIN, FROM_CONFIG, "config")) revoked++;
    }
    return { granted, revoked };
  });
}

/**
 * Decision 0522, when one account is created verified or proves its address (an e-mail code, a
 * sign-in link, Google, an address change): the same rule for that account alone, in the
 * caller's transaction, so the role comes with the verification that earns it.
 */
export async function syncConfiguredAdminOf(
  ctx: Pick<ConfiguredAdminsContext, "clock" | "config">,
  tx: Queryable,
  userId: string,
): Promise<void> {
  const emails = ctx.config.adminEmails;
  const [account] = await tx
    .select({ email: user.email, verified: user.verified })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  if (!account) return;
  if (account.verified && emails.includes(account.email)) {
    await grantRole(tx, ctx.clock.now(), userId, SITE_ADMIN, FROM_CONFIG);
  } else {
    await revokeRole(tx, ctx.clock.now(), userId, SITE_ADMIN, FROM_CONFIG, "config");
  }
}
