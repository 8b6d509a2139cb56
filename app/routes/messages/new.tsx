import { data, Link, redirect } from "react-router";
import { z } from "zod";
import { MessageComposer } from "~/app/components/chats/message-composer";
import { PeopleSearch } from "~/app/components/chats/people-search";
import { SharedPost } from "~/app/components/chats/shared-post";
import { pageTitle } from "~/app/components/shell/campus";
import { Avatar } from "~/app/components/ui/avatar";
import { ArrowLeftIcon } from "~/app/components/ui/icons";
import { formFields, readIntent } from "~/app/lib/form.server";
import { redirectWithToast } from "~/app/lib/toast.server";
import { requireVerifiedUser } from "~/app/lib/viewer.server";
import { findConversationWith, startConversation } from "~/server/chats/conversations";
import { getCampusPerson, searchCampusPeople } from "~/server/chats/people";
import { CHAT_MESSAGES, PEOPLE_SEARCH_LIMIT } from "~/server/chats/schemas.shared";
import { sharedPostPreview } from "~/server/chats/shared-posts";
import type { Route } from "./+types/new";
import { chatFailure, messageFromForm, withChatForm } from "./chat-action.server";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: pageTitle("New Message", matches[0]?.loaderData?.campus) }];
}

/**
 * /messages/new (and /create/message, spec 1 §2): without `to`, the people search (its results
 * as data for `?q=`, spec 1 §5); with `to={username}` (Send Message, the search's choice), the
 * existing chat with that person in either direction, or a composer whose first message starts
 * one (spec 2 §4). `post` is the post a Send Message shares.
 */
export async function loader(args: Route.LoaderArgs) {
  const { app } = args.context;
  const viewer = await requireVerifiedUser(args);
  const url = new URL(args.request.url);
  const q = url.searchParams.get("q");
  if (q !== null)
    return data({
      state: "search" as const,
      people: await searchCampusPeople(app, viewer, q, PEOPLE_SEARCH_LIMIT),
    });
  const to = url.searchParams.get("to");
  const postId = url.searchParams.get("post");
  if (!to) return data({ state: "choose" as const });
  const recipient = await getCampusPerson(app, viewer, to);
  if (!recipient || recipient.id === viewer.id) return data({ state: "no-user" as const }, { status: 404 });
  const existing = await findConversationWith(app, viewer, recipient.id);
  if (existing) throw redirect(`/messages/${existing}${postId ? `?post=${encodeURIComponent(postId)}` : ""}`);
  const sharedPost = postId ? await sharedPostPreview(app, viewer, postId) : null;
  return data({ state: "compose" as const, recipient, sharedPost });
}

const NEW_MESSAGE_INTENTS = z.enum(["start-conversation"]).default("start-conversation");

/** spec 2 §4: the first message starts the chat ('New Conversation Started') or joins the existing one. */
export async function action(args: Route.ActionArgs) {
  const { app } = args.context;
  const viewer = await requireVerifiedUser(args);
  return withChatForm(app, args.request, async (form) => {
    const intent = readIntent(form, NEW_MESSAGE_INTENTS);
    const { recipientId } = formFields(form);
    try {
      const started = await startConversation(app, viewer, {
        recipientId: typeof recipientId === "string" ? recipientId : "",
        ...messageFromForm(form),
      });
      if (started.created) {
        throw await redirectWithToast(`/messages/${started.chatId}`, {
          message: CHAT_MESSAGES.newConversation,
          type: "success",
        });
      }
      throw redirect(`/messages/${started.chatId}`);
    } catch (error) {
      if (error instanceof Response) throw error;
      return chatFailure(app, error, intent);
    }
  });
}

export default function NewMessage({ loaderData }: Route.ComponentProps) {
  const back = (
    <Link to="/messages" className="flex size-10 items-center justify-center rounded-full hover:bg-zinc-100">
      <ArrowLeftIcon className="size-5" />
      <span className="sr-only">Back to messages</span>
    </Link>
  );
  if (loaderData.state === "compose") {
    const { recipient, sharedPost } = loaderData;
    return (
      <>
        <header className="flex items-center gap-2 border-b border-zinc-200 px-2 py-2">
          {back}
          <Avatar person={recipient} />
          <span className="min-w-0">
            <span className="block truncate font-bold">
              {recipient.firstName} {recipient.lastName}
            </span>
            <span className="block truncate text-sm text-zinc-500">@{recipient.username}</span>
          </span>
        </header>
        <div className="flex min-h-0 flex-1 flex-col items-center justify-center gap-3 px-6 text-center text-zinc-600">
          <p>Your first message starts the conversation with {recipient.firstName}.</p>
          {sharedPost ? <SharedPost card={sharedPost} /> : null}
        </div>
        <MessageComposer
          action="/messages/new"
          intent="start-conversation"
          hidden={{ recipientId: recipient.id }}
          sharedPost={sharedPost}
          quickStarts={sharedPost !== null && sharedPost !== undefined}
        />
      </>
    );
  }
  if (loaderData.state === "no-user") {
    return (
      <div className="m-auto max-w-sm px-6 text-center">
        <h2 className="text-xl font-extrabold tracking-tight">{CHAT_MESSAGES.userNotFound}</h2>
        <Link to="/messages/new" className="mt-4 inline-block font-semibold text-brand-700 underline">
          Search someone else
        </Link>
      </div>
    );
  }
  return (
    <>
      <header className="flex items-center gap-2 border-b border-zinc-200 px-2 py-2">
        {back}
        <h1 className="text-lg font-extrabold tracking-tight">New Message</h1>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">
        <PeopleSearch autoFocus />
      </div>
    </>
  );
}
