import { CHAT_MESSAGES } from "~/server/chats/schemas.shared";

// Decision 0140: an error here answers in this page's panel, inside the shell.
export { RouteErrorBoundary as ErrorBoundary } from "~/app/components/shell/route-error-boundary";

/** spec 2 §2 'Messages': the right-hand pane before a chat is chosen (above 1000 px). */
export default function NoChatSelected() {
  return (
    <div className="m-auto max-w-sm px-6 text-center">
      <h2 className="text-xl font-extrabold tracking-tight">{CHAT_MESSAGES.noneSelected}</h2>
      <p className="mt-2 text-zinc-600">Choose a conversation, or start a new one.</p>
    </div>
  );
}
