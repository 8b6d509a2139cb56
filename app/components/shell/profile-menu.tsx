import { lazy, Suspense } from "react";
import { Avatar } from "~/app/components/ui/avatar";
import { DeferredMenu } from "~/app/components/ui/deferred-menu";
import { TOTAL_UNREAD_WHAT, UnreadBadge, unreadLabel } from "~/app/components/ui/unread-badge";
import { preloadWhenIdle } from "~/app/lib/lazy-load";
import { useRootData } from "~/app/lib/root-data";

// Decision 0340: the menu's items load with Radix's menu, on first use or when the browser is idle.
const loadProfileMenuContent = () => import("./profile-menu-content");
const ProfileMenuContent = lazy(loadProfileMenuContent);
preloadWhenIdle(loadProfileMenuContent);

/** The header's profile dropdown (spec 1 §2 'Shell and layout'). */
export function ProfileMenu() {
  const { viewer, unreadCount, waitingItems } = useRootData();
  const unread = unreadLabel(unreadCount, TOTAL_UNREAD_WHAT);
  // Decision 0523: staff hear what waits for them in the same name; 0 for everyone else.
  const waiting = unreadLabel(waitingItems, "waiting for moderators");
  return (
    <div className="relative flex shrink-0">
      <DeferredMenu
        triggerLabel={
          viewer
            ? `Account menu for ${viewer.firstName} ${viewer.lastName}${unread ? `, ${unread}` : ""}${waiting ? `, ${waiting}` : ""}`
            : "Log in or sign up"
        }
        triggerClassName="relative flex shrink-0 items-center gap-2 rounded-full p-0.5 text-sm font-semibold text-zinc-800 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=open]:bg-zinc-100 xl:pr-3"
        trigger={
          <>
            <Avatar person={viewer} size="sm" className="size-9" />
            <span aria-hidden="true" className="hidden max-w-28 truncate xl:inline">
              {viewer ? viewer.firstName : "Log In"}
            </span>
          </>
        }
      >
        <Suspense fallback={null}>
          <ProfileMenuContent />
        </Suspense>
      </DeferredMenu>
      {/*
        spec 1 §2 'Headers carry the unread badge' (notifications plus chats), said with what it
        counts in the button's name (decision 0455). Outside the button, so the button's visible
        text is the first name alone, which its name holds (decision 0475, WCAG 2.5.3 label in name);
        clicks go through it to the button.
      */}
      {viewer ? (
        <span aria-hidden="true" className="pointer-events-none absolute -top-1 left-6">
          <UnreadBadge count={unreadCount} />
        </span>
      ) : null}
      {/* Decision 0523: the staff's waiting items, amber, under the unread badge (never shown to others). */}
      {waitingItems ? (
        <span aria-hidden="true" className="pointer-events-none absolute -bottom-1 left-6">
          <UnreadBadge count={waitingItems} className="bg-amber-600!" />
        </span>
      ) : null}
    </div>
  );
}
