import { Children, type ReactNode } from "react";
import { Link } from "react-router";
import type { PostListName } from "~/server/posts/list-names.shared";

/** spec 2 §2 'Profile content': tabs chosen by the `show` query, each the list its next pages come from. */
export const PROFILE_TABS = [
  { show: "home", label: "Posts", list: "profile-posts" },
  { show: "photos", label: "Photos", list: "profile-photos" },
  { show: "replies", label: "Replies", list: "profile-replies" },
  { show: "likes", label: "Likes", list: "profile-likes" },
  // Decision 0618: published reviews, server-paged by keyset (`?show=reviews&cursor=`).
  { show: "reviews", label: "Reviews", list: null },
] as const satisfies readonly { show: string; label: string; list: PostListName | null }[];

export type ProfileTab = (typeof PROFILE_TABS)[number]["show"];

/** The tab a `show` value names; anything else is the default, home (Posts). */
export function parseProfileTab(show: string | null): ProfileTab {
  return PROFILE_TABS.find((tab) => tab.show === show)?.show ?? "home";
}

function tabHref(basePath: string, show: ProfileTab): string {
  return show === "home" ? basePath : `${basePath}?show=${show}`;
}

/** The tab links: each tab has its own address, so they work without JavaScript and can be shared. */
export function ProfileTabs({ basePath, current }: { basePath: string; current: ProfileTab }) {
  return (
    <nav aria-label="Profile content" className="border-b border-zinc-200">
      <ul className="flex">
        {PROFILE_TABS.map((tab) => {
          const active = tab.show === current;
          return (
            <li key={tab.show} className="flex-1">
              <Link
                to={tabHref(basePath, tab.show)}
                aria-current={active ? "page" : undefined}
                preventScrollReset
                className={`relative flex h-12 items-center justify-center text-[15px] font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 ${
                  active ? "text-zinc-950" : "text-zinc-500 hover:bg-zinc-50 hover:text-zinc-800"
                }`}
              >
                {tab.label}
                {active ? (
                  <span
                    aria-hidden="true"
                    className="absolute inset-x-4 bottom-0 h-1 rounded-full bg-brand-600"
                  />
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** What an empty tab says, for one's own profile or someone else's. */
export function emptyTabText(
  tab: ProfileTab,
  own: boolean,
  firstName: string,
): { title: string; text: string } {
  switch (tab) {
    case "home":
      return {
        title: "No posts yet",
        text: own
          ? "When you post something, it will show up here."
          : `When ${firstName} posts something, it will show up here.`,
      };
    case "photos":
      return { title: "No photos yet", text: "Posts with photos will show up here." };
    case "replies":
      return {
        title: "No replies yet",
        text: own ? "Your replies to posts will show up here." : `${firstName}'s replies will show up here.`,
      };
    case "likes":
      return {
        title: "No likes yet",
        text: own ? "Posts you save will show up here." : `Posts ${firstName} saves will show up here.`,
      };
    case "reviews":
      return {
        title: "No reviews yet",
        text: own
          ? "Reviews from the people you trade with will show up here."
          : `Reviews of ${firstName} from the people they trade with will show up here.`,
      };
  }
}

/**
 * One tab's list (spec 2 §7 'Profile posts', 'photos', 'replies', 'Liked posts'):
 * the items it is given, or the tab's empty state. The items are rendered by
 * the caller (post cards), so the list knows nothing of their shape.
 */
export function ProfileContentList({
  label,
  empty,
  children,
}: {
  label: string;
  empty: { title: string; text: string };
  children?: ReactNode;
}) {
  if (Children.count(children) === 0) {
    return (
      <div className="px-6 py-14 text-center">
        <p className="text-lg font-bold text-zinc-900">{empty.title}</p>
        <p className="mt-1 text-sm text-zinc-600">{empty.text}</p>
      </div>
    );
  }
  return (
    <ul aria-label={label} className="divide-y divide-zinc-200">
      {Children.map(children, (child) => (
        <li>{child}</li>
      ))}
    </ul>
  );
}
