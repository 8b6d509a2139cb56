import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useEffect } from "react";
import { useFetcher, useNavigate } from "react-router";
import { BadgeCheckIcon, LinkIcon } from "~/app/components/ui/icons";
import { MenuItem } from "~/app/components/ui/menu-item";
import { useToast } from "~/app/components/ui/toaster";
import type { ProfileActionData } from "~/app/routes/profile/profile-action.server";
import { SOMETHING_WENT_WRONG } from "~/server/errors";

function MoreIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </svg>
  );
}

function FlagIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M4 15s1-1 4-1 5 2 8 2 4-1 4-1V3s-1 1-4 1-5-2-8-2-4 1-4 1zM4 22v-7" />
    </svg>
  );
}

interface ProfileActionsMenuProps {
  firstName: string;
  /** The profile's absolute address, for 'Copy link to profile'. */
  profileUrl: string;
  own: boolean;
  /** spec 2 §2: 'Claim this account' on profiles whose e-mail is not verified. */
  claimable: boolean;
  signedIn: boolean;
}

/**
 * The profile's menu (spec 1 §2 'Profile page', spec 2 §2): 'Copy link to
 * profile'; 'Claim this account' on unverified profiles; 'Report' on other
 * users' profiles (signed-out visitors are asked to sign up first).
 */
export function ProfileActionsMenu({
  firstName,
  profileUrl,
  own,
  claimable,
  signedIn,
}: ProfileActionsMenuProps) {
  const toast = useToast();
  const navigate = useNavigate();
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
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`More options for ${firstName}'s profile`}
        className="flex size-10 items-center justify-center rounded-full border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=open]:bg-zinc-100"
      >
        <MoreIcon />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          collisionPadding={12}
          className="menu-content z-50 w-[min(17rem,calc(100vw-1.5rem))] rounded-2xl border border-zinc-200 bg-white p-2 shadow-xl"
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
              icon={<FlagIcon />}
              onSelect={() => {
                if (!signedIn) navigate("/user_registration");
                else fetcher.submit({ intent: "report-user" }, { method: "post" });
              }}
            >
              Report
            </MenuItem>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
