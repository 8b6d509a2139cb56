import { useRouteLoaderData } from "react-router";
import type { ChatMeetups } from "~/server/trade/meetups";

/** The conversation page's route id (app/routes.ts), whose loader reads the chat's meetups. */
const CHAT_ROUTE_ID = "routes/messages/chat";

/**
 * Decision 0613: a chat's meetups as its page's loader read them (getChatMeetups), for the pieces
 * the page renders deep inside its thread: a card finds its meetup here by id.
 */
export function useChatMeetups(): ChatMeetups | null {
  const loaded = useRouteLoaderData(CHAT_ROUTE_ID) as { meetups?: ChatMeetups } | undefined;
  return loaded?.meetups ?? null;
}
