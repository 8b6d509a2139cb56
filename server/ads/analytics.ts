import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../context";
import { isUuid } from "../posts/input";

import { ANALYTICS_ACTIONS, type AnalyticsAction } from "./analytics-actions";

export { ANALYTICS_ACTIONS, type AnalyticsAction };

export const analyticsInputSchema = z.object({
  postId: z.string().refine(isUuid),
  action: z.enum(ANALYTICS_ACTIONS),
});

/**
 * The browser session an action is counted once for (spec 2 §4 'at most once per post per
 * session'; decision 0273): a hash of the sign-in session's cookie, or of the anonymous
 * per-browser-session cookie the analytics endpoint sets for visitors. Hashed, so the table
 * never holds a usable session token.
 */
export function sessionKeyOf(kind: "auth" | "anon", value: string): string {
  return createHash("sha256").update(`${kind}:${value}`).digest("base64url").slice(0, 32);
}

const COLUMN: Record<AnalyticsAction, string> = {
  view: "views",
  direct_message: "direct_messages",
  copied_link: "copied_link",
  external_link_click: "external_link_clicks",
  profile_visit: "profile_visits",
};

/**
 * Counts an action on a boosted post at most once per (post, action, browser session), and a
 * view by a signed-in account once per (post, account) as 'accounts reached' — the
 * de-duplication rows and the counters written in ONE statement, so concurrent repeats cannot
 * count twice (decision 0273). Only posts with a running ad count: the numbers are the ads'
 * (spec 2 §6), and a request about any other post writes nothing. No IP address is looked up
 * or stored (the spec's public IP lookup is dropped). Returns whether anything was counted.
 */
export async function recordAnalytics(
  ctx: AppContext,
  input: { postId: string; action: AnalyticsAction; sessionKey: string; userId: string | null },
): Promise<boolean> {
  const column = sql.raw(COLUMN[input.action]);
  const reachKey = input.action === "view" && input.userId ? `user:${input.userId}` : null;
  const now = ctx.clock.now();
  const result = await ctx.db.execute(sql`
    with boosted as (
      select distinct a.post_id from ads a
      where a.post_id = ${input.postId}::uuid and a.status = 'active' and a.end_time_adjusted > ${now}
    ),
    fresh as (
      insert into analytics_events (post_id, action, session_key, created_at)
      select post_id, k.action, k.session_key, ${now} from boosted
      cross join (values (${input.action}::text, ${input.sessionKey}::text), ('reach', ${reachKey}::text)) as k(action, session_key)
      where k.session_key is not null
      on conflict do nothing
      returning action
    )
    insert into post_analytics (post_id, ${column}, accounts_reached)
    select ${input.postId}::uuid,
      count(*) filter (where action <> 'reach'),
      count(*) filter (where action = 'reach')
    from fresh
    having count(*) > 0
    on conflict (post_id) do update set
      ${column} = post_analytics.${column} + excluded.${column},
      accounts_reached = post_analytics.accounts_reached + excluded.accounts_reached
    returning post_id
  `);
  // Both drivers (PGlite, node-postgres) answer with `rows`.
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}
