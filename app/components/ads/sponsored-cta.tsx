import { Link } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { buttonClass } from "~/app/components/ui/button";
import { trackPostAction } from "~/app/lib/analytics";
import { useRootData } from "~/app/lib/root-data";
import type { Sponsorship } from "~/server/ads/sponsored.shared";

/**
 * spec 2 §2 'A sponsored post shows a call-to-action button (website link or send-message),
 * visible to everyone' (and the profile goal's 'View Profile'). Each click is counted once
 * per session (external_link_click, direct_message, profile_visit).
 */
export function SponsoredCta({
  postId,
  sponsorship,
  authorUsername,
}: {
  postId: string;
  sponsorship: Sponsorship;
  authorUsername: string;
}) {
  const { viewer } = useRootData();
  const signIn = useSignInModal();
  const { cta } = sponsorship;
  const className = buttonClass("primary", "h-10 w-full");
  if (cta.type === "website" && cta.url) {
    return (
      <a
        href={cta.url}
        target="_blank"
        rel="noopener noreferrer sponsored"
        className={className}
        onClick={() => trackPostAction(postId, "external_link_click")}
      >
        {cta.label}
      </a>
    );
  }
  if (cta.type === "profile") {
    return (
      <Link
        to={`/${authorUsername}`}
        className={className}
        onClick={() => trackPostAction(postId, "profile_visit")}
      >
        {cta.label}
      </Link>
    );
  }
  return (
    <Link
      to="/messages"
      className={className}
      onClick={(event) => {
        // spec 2 §5: a visitor who messages gets the sign-in modal.
        if (!viewer) {
          event.preventDefault();
          signIn.open("message");
          return;
        }
        trackPostAction(postId, "direct_message");
      }}
    >
      {cta.label}
    </Link>
  );
}
