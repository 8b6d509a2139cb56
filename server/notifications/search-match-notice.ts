import { sql } from "drizzle-orm";
import { notifications, savedSearches } from "../db/schema";

/**
 * Decision 0621: what a 'search match' notice's words are read from — its saved search's name and
 * query, and the hits stamped with the notice's time — for the list and the e-mail alike
 * (decision 0641). The readers left join `saved_searches` on notifications.saved_search_id.
 */
export const searchMatchNoticeColumns = {
  name: savedSearches.name,
  query: savedSearches.query,
  matches: sql<number>`(select count(*)::int from saved_search_hits h
    where h.saved_search_id = ${notifications.savedSearchId} and h.notified_at = ${notifications.createdAt})`,
};
