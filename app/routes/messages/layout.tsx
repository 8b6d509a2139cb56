import { useState } from "react";
import { data, Link, Outlet, useFetcher, useLocation, useParams } from "react-router";
import { ChatList } from "~/app/components/chats/chat-list";
import { PeopleSearch } from "~/app/components/chats/people-search";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { Modal } from "~/app/components/ui/modal";
import { useAskedPages } from "~/app/lib/asked-pages";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import { isWideScreen } from "~/app/lib/wide-screen";
import { type ChatListItem, listChats } from "~/server/chats/conversations";
import type { Route } from "./+types/layout";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** Two panes need the main column's full width (no right-hand widget). */
export const handle = { shell: "wide" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Messages", matches[0]?.loaderData?.campus) }];
}

/** spec 2 §2 '/messages', §7 'User chats': the viewer's chats, newest first, a keyset page at a time. */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireVerifiedUser(args);
  const cursor = new URL(args.request.url).searchParams.get("cursor");
  return data({ chats: await listChats(args.context.app, viewer, { cursor }) });
}

/**
 * The messages area (spec 2 §2 'Messages'): the chat list beside the open chat above 1000 px;
 * at 1000 px and below the inbox alone at /messages and the chat alone at /messages/{chatId}.
 */
export default function MessagesLayout({ loaderData }: Route.ComponentProps) {
  const params = useParams();
  const location = useLocation();
  const inChat = Boolean(params.chatId) || location.pathname.startsWith("/messages/new");
  return (
    <div className="-mx-3 -mt-3 flex h-[calc(100dvh-3.5rem-5.5rem)] overflow-hidden border-zinc-200 bg-white sm:-mx-4 md:mx-0 md:mt-0 md:h-[calc(100dvh-6rem)] md:rounded-2xl md:border">
      <section
        aria-label="Chats"
        className={`${inChat ? "hidden lg:flex" : "flex"} w-full flex-col border-zinc-200 lg:w-[340px] lg:shrink-0 lg:border-r`}
      >
        <Inbox first={loaderData.chats.items} nextCursor={loaderData.chats.nextCursor} />
      </section>
      <section className={`${inChat ? "flex" : "hidden lg:flex"} min-w-0 flex-1 flex-col`}>
        <Outlet />
      </section>
    </div>
  );
}

function Inbox({ first, nextCursor }: { first: ChatListItem[]; nextCursor: string | null }) {
  const more = useFetcher<typeof loader>();
  const [loaded, setLoaded] = useState<{ items: ChatListItem[]; cursor: string | null }>({
    items: [],
    cursor: null,
  });
  const [newMessage, setNewMessage] = useState(false);
  const nextPage = useAskedPages(more, (answer) => {
    const page = answer.chats;
    if (!page) return;
    setLoaded((current) => {
      const shown = new Set(current.items.map((item) => item.id));
      return {
        items: [...current.items, ...page.items.filter((item) => !shown.has(item.id))],
        cursor: page.nextCursor,
      };
    });
  });
  const loadedCursor = loaded.items.length > 0 ? loaded.cursor : nextCursor;
  const seen = new Set(first.map((item) => item.id));
  const later = loaded.items.filter((item) => !seen.has(item.id));
  return (
    <>
      <header className="flex items-center justify-between border-b border-zinc-200 px-4 py-3">
        <h1 className="text-xl font-extrabold tracking-tight">Messages</h1>
        <Link
          to="/messages/new"
          onClick={(event) => {
            // spec 1 §2: a modal above 769 px; the full page /messages/new on phones.
            if (!isWideScreen()) return;
            event.preventDefault();
            setNewMessage(true);
          }}
          className="rounded-full bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          New Message
        </Link>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <ChatList items={[...first, ...later]} />
        {loadedCursor ? (
          <p className="py-3 text-center">
            <button
              type="button"
              className="text-sm font-semibold text-brand-700 underline"
              onClick={() => nextPage.load(`/messages?cursor=${encodeURIComponent(loadedCursor)}`)}
            >
              {more.state === "idle" ? "Load more" : "Loading..."}
            </button>
          </p>
        ) : null}
      </div>
      <Modal open={newMessage} onOpenChange={setNewMessage} title="New Message">
        <PeopleSearch autoFocus />
      </Modal>
    </>
  );
}
