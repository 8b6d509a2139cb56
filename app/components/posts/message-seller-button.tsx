import { Link } from "react-router";
import { newMessageHref, useSendMessage } from "~/app/components/chats/send-message-button";
import { buttonClass } from "~/app/components/ui/button";
import { MessageIcon } from "~/app/components/ui/icons";

/**
 * Decision 0440: 'Send Message' in plain sight on someone else's listing, on its feed
 * card and its page, beside the more menu's entry (spec 2 §2), which a buyer did not find. The
 * gates are the menu's (spec 2 §5, useSendMessage): a visitor gets the sign-in modal with reason
 * 'message', a member without a verified school its prompt. A link, so a modified click opens the
 * new-message page in a new tab and the page works before its script runs. The callers never
 * render it on the viewer's own post.
 */
export function MessageSellerButton({
  postId,
  authorUsername,
  authorFirstName,
  className = "",
}: {
  postId: string;
  authorUsername: string;
  /** Read out after the label, so each card's button names whom it writes to. */
  authorFirstName: string;
  className?: string;
}) {
  const sendMessage = useSendMessage();
  return (
    <>
      <Link
        to={newMessageHref(authorUsername, postId)}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          sendMessage.start(authorUsername, postId);
        }}
        className={buttonClass("primary", `h-11 ${className}`)}
      >
        <MessageIcon className="size-5 shrink-0" />
        Send Message
        <span className="sr-only">{` to ${authorFirstName}`}</span>
      </Link>
      {sendMessage.prompt}
    </>
  );
}
