import type { MouseEvent } from "react";
import { useLocation } from "react-router";
import { useSignInModal } from "~/app/components/auth/sign-in-modal";
import { useComposer } from "~/app/components/posts/composer-context";
import { Avatar } from "~/app/components/ui/avatar";
import { isCurrentPath, ListLink } from "~/app/components/ui/list-link";
import { UnreadBadge } from "~/app/components/ui/unread-badge";
import { useRootData } from "~/app/lib/root-data";
import { NavIcon } from "./nav-icon";
import { bottomBarItems, type UnreadCounts } from "./nav-model";
import { useScrollHomeToTop } from "./use-home-link";

/** The mobile tab bar, 769 px and below (spec 1 §2 'Shell and layout'). */
export function BottomBar({ unread }: { unread: UnreadCounts }) {
  const { campus, viewer } = useRootData();
  const onHome = useScrollHomeToTop();
  const signIn = useSignInModal();
  const composer = useComposer();
  const { pathname } = useLocation();
  const items = bottomBarItems({ generic: campus.generic, signedIn: Boolean(viewer) });
  // spec 1 §2: 'add post (asks for login with reason "post" if signed out)'; the link is the no-JS way.
  const onAddPost = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (viewer) composer.openPostComposer();
    else signIn.open("post");
  };
  return (
    <nav
      aria-label="Tabs"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur-md md:hidden"
    >
      <ul className="mx-auto flex h-14 max-w-lg items-stretch justify-around">
        {items.map((item) => {
          const isActive = isCurrentPath(pathname, item.to);
          return (
            <li key={item.label} className="flex flex-1">
              <ListLink
                to={item.to}
                aria-current={isActive ? "page" : undefined}
                onClick={item.to === "/home" ? onHome : item.icon === "plus" ? onAddPost : undefined}
                className={`flex flex-1 items-center justify-center focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-brand-600 ${isActive ? "text-brand-600" : "text-zinc-600"}`}
              >
                <span className="relative flex">
                  <span className="sr-only">{item.label}</span>
                  {item.icon === "plus" ? (
                    <span className="flex size-10 items-center justify-center rounded-full bg-brand-600 text-white shadow-sm">
                      <NavIcon name="plus" className="size-6" strokeWidth={2.5} />
                    </span>
                  ) : item.avatar ? (
                    <Avatar
                      person={viewer}
                      size="sm"
                      className={`size-7 ${isActive ? "ring-2 ring-brand-600 ring-offset-1" : ""}`}
                    />
                  ) : (
                    <NavIcon
                      name={item.icon}
                      className="size-[26px]"
                      strokeWidth={isActive ? 2.4 : undefined}
                    />
                  )}
                  {item.badge ? (
                    <UnreadBadge count={unread[item.badge]} className="absolute -top-1.5 -right-2.5" />
                  ) : null}
                </span>
              </ListLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
