import { Link } from "react-router";
import { Button, buttonClass } from "~/app/components/ui/button";
import { Modal } from "~/app/components/ui/modal";
import { PARTICIPATION_MESSAGES } from "~/server/accounts/gates.shared";
import { POST_MESSAGES } from "~/server/posts/post-rules.shared";

/**
 * spec 2 §2 'Modals' profile incomplete: 'Your profile is not complete' /
 * 'Please pick a profile picture and add a bio before posting', with
 * 'Set up profile' and 'Cancel'. `setUpHref` is the set-up page (the link
 * without JavaScript); `onSetUp` opens the wizard instead where it can.
 */
export function ProfileIncompleteModal({
  open,
  onOpenChange,
  setUpHref,
  onSetUp,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  setUpHref: string;
  onSetUp(): void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={POST_MESSAGES.profileIncompleteTitle}
      description={POST_MESSAGES.profileIncompleteBody}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Link
            to={setUpHref}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              onSetUp();
            }}
            className={buttonClass("primary")}
          >
            Set up profile
          </Link>
        </>
      }
    />
  );
}

/**
 * spec 2 §5: 'A school-unverified user is prompted to verify the school before
 * posting, commenting or messaging.' The spec gives the prompt no words: the
 * title is the school e-mail page's own ('Join your campus', spec 1 §2), the
 * sentence the gate's message (server/accounts/gates.shared.ts).
 */
export function SchoolPromptModal({
  open,
  onOpenChange,
  href,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  href: string;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Join your campus"
      description={PARTICIPATION_MESSAGES["verify-school"]}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Link to={href} onClick={() => onOpenChange(false)} className={buttonClass("primary")}>
            Join your campus
          </Link>
        </>
      }
    />
  );
}

/** spec 2 §2 'Modals': 'Discard Post?' (Discard / Keep Writing); spec 2 §4: Discard clears the draft. */
export function DiscardPostModal({
  open,
  onKeepWriting,
  onDiscard,
}: {
  open: boolean;
  onKeepWriting(): void;
  onDiscard(): void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) onKeepWriting();
      }}
      title="Discard Post?"
      description="What you wrote and the photos you added will be lost."
      footer={
        <>
          <Button variant="secondary" onClick={onKeepWriting}>
            Keep Writing
          </Button>
          <Button variant="danger" onClick={onDiscard}>
            Discard
          </Button>
        </>
      }
    />
  );
}
