import { useLocation } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { useComposer } from "~/app/components/posts/composer-context";
import { PlusIcon } from "~/app/components/ui/icons";
import { isCurrentPath, ListLink } from "~/app/components/ui/list-link";
import { UnreadBadge } from "~/app/components/ui/unread-badge";
import { useRootData } from "~/app/lib/root-data";
import { SharedMarkup } from "~/app/lib/shared-markup";
import { NavIcon } from "./nav-icon";
import { createPostTarget, sideNavItems, type UnreadCounts } from "./nav-model";
import { useScrollHomeToTop } from "./use-home-link";

/**
 * Left navigation on screens wider than 769 px: icons with labels above
 * 1000 px, an icon rail from 770 to 1000 px (spec 1 §9 'side nav collapse').
 */
export function SideNav({ unread }: { unread: UnreadCounts }) {
  const { campus, viewer } = useRootData();
  const onHome = useScrollHomeToTop();
  const signIn = useSignInModal();
  const composer = useComposer();
  const { pathname } = useLocation();
  const items = sideNavItems({ generic: campus.generic, signedIn: Boolean(viewer) });
  return (
    <nav
      aria-label="Main"
      className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-[76px] shrink-0 flex-col items-center gap-1 overflow-y-auto px-2 py-4 md:flex lg:w-[244px] lg:items-stretch lg:px-3"
    >
      {/* The same links for every reader with these badges on this page: rendered once (decision 0380). */}
      <SharedMarkup
        sharedKey={() =>
          JSON.stringify(["side-nav", items, items.map((item) => isCurrentPath(pathname, item.to)), unread])
        }
        className="contents"
      >
        <ul className="flex w-full flex-col gap-1">
          {items.map((item) => {
            const isActive = isCurrentPath(pathname, item.to);
            return (
              <li key={item.to}>
                <ListLink
                  to={item.to}
                  aria-current={isActive ? "page" : undefined}
                  onClick={item.to === "/home" ? onHome : undefined}
                  className={`group flex items-center justify-center gap-4 rounded-full p-3 text-[17px] transition-colors hover:bg-zinc-200/60 focus-visible:outline-2 focus-visible:outline-brand-600 lg:justify-start lg:px-4 ${isActive ? "font-bold text-zinc-950" : "font-medium text-zinc-700"}`}
                >
                  {/* First in the markup, so the link is read 'Messages, 3 unread' (UnreadBadge); drawn after the icon. */}
                  <span className="sr-only order-last lg:not-sr-only">{item.label}</span>
                  <span className="relative">
                    <NavIcon
                      name={item.icon}
                      className={isActive ? "size-6 text-brand-600" : "size-6"}
                      strokeWidth={isActive ? 2.4 : undefined}
                    />
                    {item.badge ? (
                      <UnreadBadge count={unread[item.badge]} className="absolute -top-2 -right-2.5" />
                    ) : null}
                  </span>
                </ListLink>
              </li>
            );
          })}
        </ul>
      </SharedMarkup>
      {campus.generic ? null : (
        <ListLink
          to={createPostTarget(Boolean(viewer))}
          onClick={(event) => {
            // spec 1 §6: a visitor's attempt to post opens the sign-in modal (reason 'post').
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            if (viewer) composer.openPostComposer();
            else signIn.open("post");
          }}
          className="mt-3 flex size-12 items-center justify-center gap-2 rounded-full bg-brand-600 font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 lg:w-full"
        >
          <PlusIcon className="size-6" strokeWidth={2.5} />
          <span className="sr-only lg:not-sr-only">Create Post</span>
        </ListLink>
      )}
    </nav>
  );
}
