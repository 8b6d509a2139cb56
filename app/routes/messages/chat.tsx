import { useEffect, useState } from "react";
import { data, Form, Link, useFetcher, useRevalidator } from "react-router";
import { z } from "zod";
import { MessageComposer } from "~/app/components/chats/message-composer";
import { MessageThread } from "~/app/components/chats/message-thread";
import { RequestActions } from "~/app/components/chats/request-list";
import { AcceptedMeetup } from "~/app/components/trade/accepted-meetup";
import { ProposeMeetupButton } from "~/app/components/trade/propose-meetup";
import { ReputationLine } from "~/app/components/trade/reputation-line";
import { TradeHeader } from "~/app/components/trade/trade-header";
import { useActionToast } from "~/app/components/ui/action-feedback";
import { Avatar } from "~/app/components/ui/avatar";
import { Button } from "~/app/components/ui/button";
import { ArrowLeftIcon, BadgeCheckIcon } from "~/app/components/ui/icons";
import { Modal } from "~/app/components/ui/modal";
import { formFields, readIntent } from "~/app/lib/form.server";
import { REPORT_INTENT, reportContent } from "~/app/lib/report.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import { blockUser, unblockUser } from "~/server/chats/blocks";
import { deleteChat, getChat } from "~/server/chats/conversations";
import { listMessages, sendMessage, toggleMessageLike } from "~/server/chats/messages";
import { markChatRead } from "~/server/chats/read-state";
import { acceptRequest, blockRequestSender, declineRequest } from "~/server/chats/requests";
import { REQUEST_INTENTS, REQUEST_MESSAGES } from "~/server/chats/requests.shared";
import { CHAT_MESSAGES } from "~/server/chats/schemas.shared";
import { sharedPostPreview } from "~/server/chats/shared-posts";
import { chatTrade } from "~/server/trade/chat-trade";
import { getChatMeetups } from "~/server/trade/meetups";
import { getReputation } from "~/server/trade/reputation";
import type { Route } from "./+types/chat";
import { chatFailure, messageFromForm, withChatForm } from "./chat-action.server";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/**
 * spec 2 §2 '/messages/{chatId}': one conversation. Opening it marks it read (spec 2 §4 'Chat');
 * `?before=` gives an older page (spec 2 §7); `?post=` the post a Send Message shares.
 */
export async function loader(args: Route.LoaderArgs) {
  const { app } = args.context;
  const viewer = await requireVerifiedUser(args);
  const url = new URL(args.request.url);
  const chat = await getChat(app, viewer, args.params.chatId);
  // spec 2 §2, §8: 'This conversation doesn't exist' for a missing chat or anyone else's.
  if (!chat) return data({ state: "missing" as const }, { status: 404 });
  const beforeText = url.searchParams.get("before");
  const before = beforeText && /^\d{1,9}$/.test(beforeText) ? Number(beforeText) : null;
  const markedRead = before === null ? await markChatRead(app, viewer, chat.id) : false;
  const page = await listMessages(app, viewer, chat.id, { before });
  const postId = url.searchParams.get("post");
  const sharedPost = postId ? await sharedPostPreview(app, viewer, postId) : null;
  // Decision 0602: the listing and deal at the top, the offers' cards in the thread.
  const trade = await chatTrade(app, viewer, chat.id, page.items);
  // Decision 0613: the chat's meetup cards, the accepted one, and what the proposal dialog offers.
  const meetups = await getChatMeetups(app, viewer, chat.id);
  // Decision 0616: the other person's reputation line under the header.
  const reputation = chat.otherDeleted ? null : await getReputation(app.db, chat.other.id);
  return data({ state: "found" as const, chat, page, markedRead, sharedPost, trade, meetups, reputation });
}

const CHAT_INTENTS = z.enum([
  "send-message",
  "like-message",
  "delete-chat",
  "block-user",
  "unblock-user",
  ...REQUEST_INTENTS,
  REPORT_INTENT,
]);

/** The chat's forms: send, like (recipient only), delete for both, block and unblock (decision 0230). */
export async function action(args: Route.ActionArgs) {
  const { app } = args.context;
  const viewer = await requireVerifiedUser(args);
  const chatId = args.params.chatId;
  return withChatForm(app, args.request, async (form) => {
    const intent = readIntent(form, CHAT_INTENTS);
    // Decision 0540: a message's report (the other member's), its snapshot taken by the domain.
    if (intent === REPORT_INTENT) return reportContent(app, viewer, form);
    try {
      if (intent === "send-message") {
        const { messageId } = await sendMessage(app, viewer, chatId, messageFromForm(form));
        return data({ ok: true as const, intent, messageId, toast: null });
      }
      if (intent === "like-message") {
        const { messageId } = formFields(form);
        const { liked } = await toggleMessageLike(
          app,
          viewer,
          chatId,
          typeof messageId === "string" ? messageId : "",
        );
        // spec 2 §8 'Reaction sent.' (success).
        const toast = liked ? ({ message: CHAT_MESSAGES.reactionSent, type: "success" } as const) : null;
        return data({ ok: true as const, intent, liked, toast });
      }
      // Decision 0671: a request's Accept opens it in the inbox; Decline and Block go back to Requests.
      if (intent === "accept-request") {
        await acceptRequest(app, viewer, chatId);
        throw await redirectWithToast(`/messages/${chatId}`, {
          message: REQUEST_MESSAGES.accepted,
          type: "okay",
        });
      }
      if (intent === "decline-request" || intent === "block-request") {
        if (intent === "decline-request") await declineRequest(app, viewer, chatId);
        else await blockRequestSender(app, viewer, chatId);
        throw await redirectWithToast("/messages?tab=requests", {
          message: intent === "decline-request" ? REQUEST_MESSAGES.declined : REQUEST_MESSAGES.blocked,
          type: "okay",
        });
      }
      if (intent === "delete-chat") {
        const { failedFiles } = await deleteChat(app, viewer, chatId);
        // spec 2 §4, §8: 'Chat deleted' (okay), or 'Couldn't delete all chat messages' (danger).
        throw await redirectWithToast(
          "/messages",
          failedFiles.length > 0
            ? { message: CHAT_MESSAGES.couldntDeleteAll, type: "danger" }
            : { message: CHAT_MESSAGES.chatDeleted, type: "okay" },
        );
      }
      const chat = await getChat(app, viewer, chatId);
      if (!chat)
        return data(
          { ok: false as const, intent, toast: { message: CHAT_MESSAGES.notFound, type: "danger" as const } },
          { status: 404 },
        );
      if (intent === "block-user") {
        await blockUser(app, viewer, chat.other.id);
        return data({
          ok: true as const,
          intent,
          toast: { message: CHAT_MESSAGES.userBlocked, type: "okay" as const },
        });
      }
      await unblockUser(app, viewer, chat.other.id);
      return data({
        ok: true as const,
        intent,
        toast: { message: CHAT_MESSAGES.userUnblocked, type: "okay" as const },
      });
    } catch (error) {
      if (error instanceof Response) throw error;
      return chatFailure(app, error, intent);
    }
  });
}

export default function ChatPage({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  // The root's unread count was read beside this loader, before the chat was marked read: read it again once.
  const markedRead = loaderData.state === "found" && loaderData.markedRead;
  useEffect(() => {
    if (markedRead && revalidator.state === "idle") void revalidator.revalidate();
  }, [markedRead, revalidator]);

  if (loaderData.state === "missing") {
    return (
      <div className="m-auto max-w-sm px-6 text-center">
        <h2 className="text-xl font-extrabold tracking-tight">{CHAT_MESSAGES.notFound}</h2>
        <p className="mt-2 text-zinc-600">{CHAT_MESSAGES.notFoundDetail}</p>
        <Link to="/messages" className="mt-4 inline-block font-semibold text-brand-700 underline">
          Back to messages
        </Link>
      </div>
    );
  }
  const { chat, page, sharedPost, trade } = loaderData;
  return (
    <>
      <ChatHeader chat={chat} />
      {loaderData.reputation ? (
        <ReputationLine summary={loaderData.reputation} className="border-b border-zinc-200 px-4 py-1.5" />
      ) : null}
      {chat.request === "pending" && !chat.otherDeleted ? (
        // Decision 0671: a request says so above its thread; opening it accepts nothing and tells the sender nothing.
        <section
          aria-label={REQUEST_MESSAGES.requestsTab}
          className="border-b border-zinc-200 bg-amber-50 px-4 py-3"
        >
          <p className="text-sm text-zinc-800">{REQUEST_MESSAGES.banner(chat.other.firstName)}</p>
          <RequestActions
            chatId={chat.id}
            name={`${chat.other.firstName} ${chat.other.lastName}`}
            className="mt-2"
          />
        </section>
      ) : null}
      {trade.header ? <TradeHeader header={trade.header} /> : null}
      <AcceptedMeetup />
      <MessageThread
        key={chat.id}
        chatId={chat.id}
        page={page}
        offerCards={trade.cards}
        receipt={chat.receipt}
        otherFirstName={chat.otherDeleted ? CHAT_MESSAGES.deletedAccount : chat.other.firstName}
        otherDeleted={chat.otherDeleted}
      />
      {chat.otherDeleted ? (
        <p className="border-t border-zinc-200 px-4 py-4 text-center text-sm text-zinc-600">
          {CHAT_MESSAGES.accountDeleted}
        </p>
      ) : chat.viewerBlocked ? (
        <BlockedBar username={chat.other.username} chatId={chat.id} />
      ) : chat.blockedByOther ? (
        <p className="border-t border-zinc-200 px-4 py-4 text-center text-sm text-zinc-600">
          {CHAT_MESSAGES.blockedYou}
        </p>
      ) : (
        <>
          <ProposeMeetupButton chatId={chat.id} />
          <MessageComposer
            key={chat.id}
            action={`/messages/${chat.id}`}
            intent="send-message"
            sharedPost={sharedPost}
            quickStarts={page.items.length === 0 && sharedPost !== null}
          />
        </>
      )}
    </>
  );
}

/** spec 2 §2: the other person's name, handle and badge; block and delete (decision 0230, spec 2 §4). */
function ChatHeader({
  chat,
}: {
  chat: Extract<Route.ComponentProps["loaderData"], { state: "found" }>["chat"];
}) {
  const [deleting, setDeleting] = useState(false);
  const block = useFetcher<{ toast?: { message: string; type: "okay" | "danger" } | null }>();
  useActionToast(block.data?.toast);
  const name = chat.otherDeleted
    ? CHAT_MESSAGES.deletedAccount
    : `${chat.other.firstName} ${chat.other.lastName}`;
  // Decision 0571: a deleted account has no profile to go to, and nothing to block.
  const person = (
    <>
      <Avatar person={chat.otherDeleted ? { ...chat.other, img: null } : chat.other} />
      <div className="min-w-0">
        {/* Decision 0475: on a phone the chat is the whole page, so the person's name is its heading. */}
        <h1 className="flex items-center gap-1 text-base font-bold">
          <span className="truncate">{name}</span>
          {chat.other.badge && !chat.otherDeleted ? (
            <span title={chat.other.badge.label} className="text-sky-600">
              <BadgeCheckIcon className="size-4" />
              <span className="sr-only">{chat.other.badge.label}</span>
            </span>
          ) : null}
        </h1>
        {chat.otherDeleted ? null : (
          <span className="block truncate text-sm text-zinc-600">@{chat.other.username}</span>
        )}
      </div>
    </>
  );
  return (
    <header className="flex items-center gap-2 border-b border-zinc-200 px-2 py-2">
      <Link
        to="/messages"
        className="flex size-10 items-center justify-center rounded-full hover:bg-zinc-100 lg:hidden"
      >
        <ArrowLeftIcon className="size-5" />
        <span className="sr-only">Back to messages</span>
      </Link>
      {chat.otherDeleted ? (
        <div className="flex min-w-0 flex-1 items-center gap-2.5 p-1">{person}</div>
      ) : (
        <Link
          to={`/${chat.other.username}`}
          className="flex min-w-0 flex-1 items-center gap-2.5 rounded-xl p-1 hover:bg-zinc-50"
        >
          {person}
        </Link>
      )}
      {chat.viewerBlocked || chat.otherDeleted ? null : (
        <block.Form method="post" action={`/messages/${chat.id}`}>
          <input type="hidden" name="intent" value="block-user" />
          <button
            type="submit"
            className="rounded-full px-3 py-2 text-sm font-semibold text-zinc-700 hover:bg-zinc-100"
          >
            Block
          </button>
        </block.Form>
      )}
      <button
        type="button"
        onClick={() => setDeleting(true)}
        className="rounded-full px-3 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
      >
        Delete
      </button>
      <Modal
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete conversation?"
        description={`Every message with ${chat.other.firstName} will be deleted for both of you. This can't be undone.`}
        footer={
          <Form method="post" action={`/messages/${chat.id}`} className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => setDeleting(false)}>
              Cancel
            </Button>
            <Button type="submit" name="intent" value="delete-chat" variant="danger">
              Delete
            </Button>
          </Form>
        }
      />
    </header>
  );
}

/** Decision 0230: the blocker's composer is replaced by 'You blocked this user' with Unblock. */
function BlockedBar({ chatId }: { username: string; chatId: string }) {
  const unblock = useFetcher<{ toast?: { message: string; type: "okay" | "danger" } | null }>();
  useActionToast(unblock.data?.toast);
  return (
    <unblock.Form
      method="post"
      action={`/messages/${chatId}`}
      className="flex items-center justify-center gap-3 border-t border-zinc-200 px-4 py-3 text-sm"
    >
      <span className="text-zinc-700">{CHAT_MESSAGES.youBlocked}</span>
      <input type="hidden" name="intent" value="unblock-user" />
      <button
        type="submit"
        className="rounded-full border border-zinc-300 px-3 py-1.5 font-semibold hover:bg-zinc-50"
      >
        Unblock
      </button>
    </unblock.Form>
  );
}
