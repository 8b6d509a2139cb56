import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { Avatar } from "~/app/components/ui/avatar";
import type { ChatListItem } from "~/server/chats/conversations";
import { CHAT_MESSAGES } from "~/server/chats/schemas.shared";

/** '3m', '2h', '5d' or the date: the inbox's age of the last message. */
export function shortAge(date: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - date.getTime()) / 1000));
  if (seconds < 60) return "now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  if (seconds < 7 * 86_400) return `${Math.floor(seconds / 86_400)}d`;
  return date.toLocaleDateString("en-US", { month: "short", day: "numeric" });
}

/**
 * spec 2 §2 '/messages': the chat list, latest first: the other person's avatar and name, the
 * last message, and an unread marker (spec 2 §3 'read').
 */
export function ChatList({
  items,
  label = "Chats",
  search = "",
  empty = {
    title: CHAT_MESSAGES.emptyInbox,
    detail: "Start a conversation with New Message, or from a post.",
  },
  actions,
}: {
  items: readonly ChatListItem[];
  label?: string;
  /** Decision 0671: '?tab=requests' keeps the Requests tab beside an opened request. */
  search?: string;
  empty?: { title: string; detail: string };
  /** Buttons under a row (the Requests tab's Accept, Decline and Block), outside its link. */
  actions?: (chat: ChatListItem) => ReactNode;
}) {
  if (items.length === 0) {
    return (
      <div className="px-6 py-14 text-center">
        <p className="text-lg font-bold text-zinc-900">{empty.title}</p>
        <p className="mt-2 text-sm text-zinc-600">{empty.detail}</p>
      </div>
    );
  }
  const now = new Date();
  return (
    <ul aria-label={label} className="divide-y divide-zinc-100">
      {items.map((chat) => {
        // Decision 0571: a deleted account is 'Deleted account', without its handle.
        const name = chat.otherDeleted
          ? CHAT_MESSAGES.deletedAccount
          : `${chat.other.firstName} ${chat.other.lastName}`;
        return (
          <li key={chat.id}>
            <NavLink
              to={`/messages/${chat.id}${search}`}
              className={({ isActive }) =>
                `flex items-center gap-3 px-4 py-3 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${isActive ? "bg-zinc-100" : ""}`
              }
            >
              <Avatar person={chat.other} />
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline gap-2">
                  <span
                    className={`truncate ${chat.unread ? "font-extrabold text-zinc-950" : "font-semibold text-zinc-900"}`}
                  >
                    {name}
                  </span>
                  {/* Decision 0475: zinc-600, not 500: readable (4.5:1) on the selected row's grey too. */}
                  {chat.otherDeleted ? null : (
                    <span className="truncate text-sm text-zinc-600">@{chat.other.username}</span>
                  )}
                  <time
                    dateTime={chat.lastModified.toISOString()}
                    className="ml-auto shrink-0 text-xs text-zinc-600"
                    suppressHydrationWarning
                  >
                    {shortAge(chat.lastModified, now)}
                  </time>
                </span>
                <span
                  className={`block truncate text-sm ${chat.unread ? "font-semibold text-zinc-900" : "text-zinc-600"}`}
                >
                  {chat.lastMessage}
                </span>
              </span>
              {chat.unread ? (
                <span className="size-2.5 shrink-0 rounded-full bg-brand-600">
                  <span className="sr-only">Unread</span>
                </span>
              ) : null}
            </NavLink>
            {actions ? actions(chat) : null}
          </li>
        );
      })}
    </ul>
  );
}
