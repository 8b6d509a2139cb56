import { type ReactNode, useState } from "react";
import { useNavigate } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { SchoolPromptModal } from "~/app/components/posts/post-gate-modals";
import { useRootData } from "~/app/lib/root-data";

/** Where Send Message leads: the new-message page for that person, sharing the post if there is one. */
export function newMessageHref(username: string, postId?: string | null): string {
  const query = new URLSearchParams({ to: username });
  if (postId) query.set("post", postId);
  return `/messages/new?${query.toString()}`;
}

/**
 * Send Message on a post or a profile (spec 2 §2, spec 1 §2 'Profile page'; never one's own,
 * the callers hide it). spec 2 §5: a visitor gets the sign-in modal with reason 'message'; a
 * member whose school is not verified gets the school prompt; anyone else goes to
 * /messages/new, which opens the existing chat in either direction or starts one (spec 2 §4).
 */
export function useSendMessage(): {
  start(username: string, postId?: string | null): void;
  prompt: ReactNode;
} {
  const { viewer } = useRootData();
  const signIn = useSignInModal();
  const navigate = useNavigate();
  const [schoolPrompt, setSchoolPrompt] = useState(false);
  return {
    start(username, postId) {
      if (!viewer) signIn.open("message");
      else if (!viewer.verified) navigate("/verify");
      else if (!viewer.schoolVerified) setSchoolPrompt(true);
      else navigate(newMessageHref(username, postId));
    },
    prompt: (
      <SchoolPromptModal
        open={schoolPrompt}
        onOpenChange={setSchoolPrompt}
        href="/settings/account/school_email"
      />
    ),
  };
}
