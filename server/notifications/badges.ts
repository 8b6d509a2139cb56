import { eq, sql } from "drizzle-orm";
import type { Viewer } from "../accounts/viewer";
import { campusMembersOf } from "../campuses/campuses";
import { unreadChatsOf } from "../chats/read-state";
import type { AppContext } from "../context";
import { preparedStatement } from "../db/prepared";
import { chatMembers, notifications, realtimeCursors, user } from "../db/schema";
import { waitingItemsOf } from "../staff/waiting";
import { unreadNotificationsOf } from "./notifications";

/** What the shell shows of a signed-in viewer on every page (spec 1 §2). */
export interface ShellCounts {
  /** Unread chats (decision 0235). */
  unreadChats: number;
  /** Unread notifications since the list was last opened (decision 0250). */
  unreadNotifications: number;
  /** The viewer's latest live event number (decision 0210): where the page's live stream starts. */
  realtimeSeq: number;
  /** 'About This Group': the page's campus's members (server/campuses/campuses.ts countCampusMembers). */
  memberCount: number;
  /** Decision 0523: the items waiting for the viewer as staff (server/staff/waiting.ts); 0 for everyone else. */
  waitingItems: number;
}

/**
 * The badges' counts (the staff's waiting items too), the live event number and the page's campus's member count in one prepared
 * statement (decision 0354): every signed-in page reads them, and four round trips cost more than
 * the four small index reads. Each count is the one its own area defines (countUnreadChats,
 * countUnreadNotifications, currentUserSeq, countCampusMembers).
 */
export async function readShellCounts(
  ctx: AppContext,
  viewer: Viewer,
  pageCampusId: string,
): Promise<ShellCounts> {
  const statement = preparedStatement(ctx.db, "shell_counts", () => {
    const userId = sql.placeholder("userId");
    const campusId = sql.placeholder("campusId");
    return ctx.db
      .select({
        unreadChats: sql<number>`(select count(*)::int from ${chatMembers} where ${unreadChatsOf(userId, campusId)})`,
        unreadNotifications: sql<number>`(select count(*)::int from ${notifications} where ${unreadNotificationsOf(userId)})`,
        realtimeSeq: sql<number>`coalesce((select ${realtimeCursors.lastSeq} from ${realtimeCursors} where ${realtimeCursors.userId} = ${userId}), 0)`,
        // The inner "user" is the nearest in scope: the campus's users, not the viewer's row.
        memberCount: sql<number>`(select count(*)::int from ${user} where ${campusMembersOf(sql.placeholder("pageCampusId"))})`,
        waitingItems: waitingItemsOf(userId),
      })
      .from(user)
      .where(eq(user.id, userId));
  });
  const [row] = (await statement.execute({
    userId: viewer.id,
    campusId: viewer.campusId,
    pageCampusId,
  })) as ShellCounts[];
  return {
    unreadChats: Number(row?.unreadChats ?? 0),
    unreadNotifications: Number(row?.unreadNotifications ?? 0),
    realtimeSeq: Number(row?.realtimeSeq ?? 0),
    memberCount: Number(row?.memberCount ?? 0),
    waitingItems: Number(row?.waitingItems ?? 0),
  };
}
