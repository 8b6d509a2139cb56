import { useEffect } from "react";
import { useFetcher } from "react-router";
import { useReport } from "~/app/components/moderation/use-report";
import { BadgeCheckIcon, FlagIcon, LinkIcon } from "~/app/components/ui/icons";
import { MenuItem, MoreOptionsMenu } from "~/app/components/ui/menu-item";
import { useToast } from "~/app/components/ui/toaster";
import type { ProfileActionData } from "~/app/routes/profile/profile-action.server";
import { SOMETHING_WENT_WRONG } from "~/server/errors.shared";
import { REPORT_MESSAGES } from "~/server/moderation/rules.shared";

interface ProfileActionsMenuProps {
  /** The member a Report is about (decision 0540), and their page, whose action files it. */
  profileId: string;
  username: string;
  firstName: string;
  /** The profile's absolute address, for 'Copy link to profile'. */
  profileUrl: string;
  own: boolean;
  /** Decision 0230: the viewer blocked this person (the item reads Unblock). */
  blocked?: boolean;
  /** spec 2 §2: 'Claim this account' on profiles whose e-mail is not verified. */
  claimable: boolean;
  signedIn: boolean;
}

/**
 * The profile's menu (spec 1 §2 'Profile page', spec 2 §2): 'Copy link to
 * profile'; 'Claim this account' on unverified profiles; 'Report' on other
 * users' profiles, which opens the report dialog ('User Reported. Thanks for letting us know.';
 * signed-out visitors get the sign-in modal first).
 */
export function ProfileActionsMenu({
  profileId,
  username,
  firstName,
  profileUrl,
  own,
  blocked = false,
  claimable,
  signedIn,
}: ProfileActionsMenuProps) {
  const toast = useToast();
  const report = useReport();
  const fetcher = useFetcher<ProfileActionData>();

  useEffect(() => {
    if (fetcher.data?.toast) toast.show(fetcher.data.toast);
  }, [fetcher.data, toast]);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(profileUrl);
    } catch {
      toast.show({ message: SOMETHING_WENT_WRONG, type: "danger" });
      return;
    }
    // spec 2 §8 'Copied to clipboard': okay if signed in, else success.
    toast.show({ message: "Copied to clipboard", type: signedIn ? "okay" : "success" });
  }

  return (
    <>
      <MoreOptionsMenu
        label={`More options for ${firstName}'s profile`}
        triggerClassName="flex size-10 items-center justify-center rounded-full border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=open]:bg-zinc-100"
        contentClassName="w-[min(17rem,calc(100vw-1.5rem))]"
        sideOffset={8}
      >
        <MenuItem icon={<LinkIcon className="size-5" />} onSelect={() => void copyLink()}>
          Copy link to profile
        </MenuItem>
        {claimable && !own ? (
          <MenuItem
            icon={<BadgeCheckIcon className="size-5" />}
            onSelect={() => fetcher.submit({ intent: "claim-account" }, { method: "post" })}
          >
            Claim this account
          </MenuItem>
        ) : null}
        {own ? null : (
          <MenuItem
            icon={<FlagIcon className="size-5" />}
            onSelect={() => report.open({ kind: "user", id: profileId, action: `/${username}` })}
          >
            {REPORT_MESSAGES.menuItem}
          </MenuItem>
        )}
        {own || !signedIn ? null : (
          // Decision 0230: stop this person from messaging you, or let them again.
          <MenuItem
            icon={<FlagIcon className="size-5" />}
            onSelect={() =>
              fetcher.submit({ intent: blocked ? "unblock-user" : "block-user" }, { method: "post" })
            }
          >
            {blocked ? `Unblock ${firstName}` : `Block ${firstName}`}
          </MenuItem>
        )}
      </MoreOptionsMenu>
      {report.dialog}
    </>
  );
}
