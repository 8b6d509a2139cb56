import { useFetcher } from "react-router";
import { ChatList } from "~/app/components/chats/chat-list";
import { useActionToast } from "~/app/components/ui/action-feedback";
import type { ToastInput } from "~/app/lib/toast";
import type { ChatListItem } from "~/server/chats/conversations";
import { REQUEST_MESSAGES } from "~/server/chats/requests.shared";

/** Decision 0671: the Requests tab: the chat list's rows, each with Accept, Decline and Block. */
export function RequestList({ items }: { items: readonly ChatListItem[] }) {
  return (
    <ChatList
      items={items}
      label={REQUEST_MESSAGES.requestsTab}
      search="?tab=requests"
      empty={{ title: REQUEST_MESSAGES.emptyRequests, detail: REQUEST_MESSAGES.emptyRequestsDetail }}
      actions={(chat) => (
        <RequestActions
          chatId={chat.id}
          name={`${chat.other.firstName} ${chat.other.lastName}`}
          className="px-4 pb-3 pl-[4.25rem]"
        />
      )}
    />
  );
}

/**
 * Accept, Decline and Block of one request (the list's row and the opened request's banner). The
 * forms post to the chat's page, so they work before JavaScript; the server checks the request is the viewer's.
 */
export function RequestActions({
  chatId,
  name,
  className = "",
}: {
  chatId: string;
  name: string;
  className?: string;
}) {
  const fetcher = useFetcher<{ toast?: ToastInput | null }>();
  useActionToast(fetcher.data?.toast);
  const busy = fetcher.state !== "idle";
  const button =
    "min-h-9 rounded-full px-3 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60";
  return (
    <fetcher.Form
      method="post"
      action={`/messages/${chatId}?tab=requests`}
      aria-label={`Request from ${name}`}
      className={`flex flex-wrap gap-1.5 ${className}`}
    >
      <button
        type="submit"
        name="intent"
        value="accept-request"
        disabled={busy}
        className={`${button} bg-brand-600 text-white hover:bg-brand-700`}
      >
        {REQUEST_MESSAGES.accept}
      </button>
      <button
        type="submit"
        name="intent"
        value="decline-request"
        disabled={busy}
        className={`${button} border border-zinc-300 text-zinc-800 hover:bg-zinc-50`}
      >
        {REQUEST_MESSAGES.decline}
      </button>
      <button
        type="submit"
        name="intent"
        value="block-request"
        disabled={busy}
        className={`${button} text-red-700 hover:bg-red-50`}
      >
        {REQUEST_MESSAGES.block}
      </button>
    </fetcher.Form>
  );
}
