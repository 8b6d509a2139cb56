import type { Tx } from "../db/client";
import { publishUserEvent } from "../realtime/events";

/** The one realtime event every chat change publishes to each participant, in the change's own transaction (decision 0210). */

/** The realtime event every chat change publishes (decision 0210: ids only). */
export type ChatEventKind = "message" | "read" | "like" | "deleted" | "blocked";
export interface ChatEventData {
  chatId: string;
  messageId?: string;
  kind: ChatEventKind;
}
export const CHAT_EVENT_TYPE = "chat";

export async function publishChatEvent(
  tx: Tx,
  userIds: readonly string[],
  data: ChatEventData,
): Promise<void> {
  // One user's events in a fixed order (sorted ids), so two transactions never wait on each other's cursors.
  for (const userId of [...userIds].sort()) {
    await publishUserEvent(tx, userId, { type: CHAT_EVENT_TYPE, data: { ...data } });
  }
}
