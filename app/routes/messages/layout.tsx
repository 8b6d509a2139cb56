import { useState } from "react";
import { data, Link, Outlet, useFetcher, useLocation, useParams } from "react-router";
import { ChatList } from "~/app/components/chats/chat-list";
import { PeopleSearch } from "~/app/components/chats/people-search";
import { RequestList } from "~/app/components/chats/request-list";
import { pageTitle } from "~/app/components/shell/campus";
import type { ShellHandle } from "~/app/components/shell/shell";
import { Modal } from "~/app/components/ui/modal";
import { useAskedPages } from "~/app/lib/asked-pages";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import { isWideScreen } from "~/app/lib/wide-screen";
import { type ChatListItem, listChats } from "~/server/chats/conversations";
import { countRequests } from "~/server/chats/requests";
import { REQUEST_MESSAGES } from "~/server/chats/requests.shared";
import type { Route } from "./+types/layout";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** Two panes need the main column's full width (no right-hand widget). */
export const handle = { shell: "wide" } satisfies ShellHandle;

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("Messages", matches[0]?.loaderData?.campus) }];
}

/**
 * spec 2 §2 '/messages', §7 'User chats': the viewer's chats, newest first, a keyset page at a time.
 * Decision 0671: `?tab=requests` lists the Requests tab instead; its count is read on every visit
 * (a chat event revalidates it, so it is live), and never joins the header's total.
 */
export async function loader(args: Route.LoaderArgs) {
  const viewer = await requireVerifiedUser(args);
  const url = new URL(args.request.url);
  const cursor = url.searchParams.get("cursor");
  const box = url.searchParams.get("tab") === "requests" ? ("requests" as const) : ("inbox" as const);
  const { app } = args.context;
  const [chats, requestCount] = await Promise.all([
    listChats(app, viewer, { cursor, box }),
    countRequests(app, viewer),
  ]);
  return data({ chats, box, requestCount });
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
        <Inbox
          key={loaderData.box}
          box={loaderData.box}
          requestCount={loaderData.requestCount}
          first={loaderData.chats.items}
          nextCursor={loaderData.chats.nextCursor}
        />
      </section>
      <section className={`${inChat ? "flex" : "hidden lg:flex"} min-w-0 flex-1 flex-col`}>
        <Outlet />
      </section>
    </div>
  );
}

function Inbox({
  box,
  requestCount,
  first,
  nextCursor,
}: {
  box: "inbox" | "requests";
  requestCount: number;
  first: ChatListItem[];
  nextCursor: string | null;
}) {
  const tab = box === "requests" ? "&tab=requests" : "";
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
      <BoxTabs box={box} requestCount={requestCount} />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {box === "requests" ? (
          <RequestList items={[...first, ...later]} />
        ) : (
          <ChatList items={[...first, ...later]} />
        )}
        {loadedCursor ? (
          <p className="py-3 text-center">
            <button
              type="button"
              className="text-sm font-semibold text-brand-700 underline"
              onClick={() => nextPage.load(`/messages?cursor=${encodeURIComponent(loadedCursor)}${tab}`)}
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

/** Decision 0671: Chats and Requests, the latter with its own count (links, so they work before JS). */
function BoxTabs({ box, requestCount }: { box: "inbox" | "requests"; requestCount: number }) {
  const tabClass = (current: boolean) =>
    `flex min-h-11 flex-1 items-center justify-center gap-1.5 border-b-2 text-sm font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${
      current ? "border-brand-600 text-zinc-950" : "border-transparent text-zinc-600 hover:text-zinc-900"
    }`;
  return (
    <nav aria-label="Chats and requests" className="flex border-b border-zinc-200">
      <Link
        to="/messages"
        aria-current={box === "inbox" ? "page" : undefined}
        className={tabClass(box === "inbox")}
      >
        {REQUEST_MESSAGES.chatsTab}
      </Link>
      <Link
        to="/messages?tab=requests"
        aria-current={box === "requests" ? "page" : undefined}
        className={tabClass(box === "requests")}
      >
        {REQUEST_MESSAGES.requestsTab}
        {requestCount > 0 ? (
          <span className="rounded-full bg-zinc-200 px-2 py-0.5 text-xs font-bold text-zinc-900">
            {requestCount}
            <span className="sr-only"> waiting</span>
          </span>
        ) : null}
      </Link>
    </nav>
  );
}
