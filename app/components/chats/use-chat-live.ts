import { useCallback, useEffect } from "react";
import { useRevalidator } from "react-router";

/** How often an open chat screen asks again while no realtime stream is wired (issue 13 §1). */
export const CHAT_REFRESH_MS = 3_000;

/**
 * What a chat screen does when something changed in one of the viewer's chats (a 'chat'
 * event of server/chats/chats.ts: a message, a read receipt, a like, a delete, a block):
 * it reads its loaders again, the root's unread count included (events carry ids only,
 * decision 0210).
 *
 * The one place the chat screens learn about changes. Until the realtime layer's browser
 * hook is on this branch, it is called when the window regains focus and every few seconds
 * while a chat screen is open and visible; at merge this becomes
 * `useRealtimeEvent("chat", onChatEvent)` (app/lib/realtime.ts).
 */
export function useChatLive(): void {
  const revalidator = useRevalidator();
  const onChatEvent = useCallback(() => {
    if (revalidator.state === "idle") void revalidator.revalidate();
  }, [revalidator]);

  useEffect(() => {
    const onFocus = () => onChatEvent();
    window.addEventListener("focus", onFocus);
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") onChatEvent();
    }, CHAT_REFRESH_MS);
    return () => {
      window.removeEventListener("focus", onFocus);
      window.clearInterval(timer);
    };
  }, [onChatEvent]);
}
