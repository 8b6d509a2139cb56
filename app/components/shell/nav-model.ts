/**
 * What the side navigation and the mobile bottom bar hold (spec 1 §2 'Shell
 * and layout'), as data so the rules are testable without rendering.
 */

export type NavIconName =
  | "home"
  | "search"
  | "bell"
  | "message"
  | "bookmark"
  | "user"
  | "settings"
  | "school"
  | "plus";

export interface NavItem {
  label: string;
  to: string;
  icon: NavIconName;
  /** Which unread count the item carries. */
  badge?: "notifications" | "chats";
  /** The avatar replaces the icon (generic bar's settings entry). */
  avatar?: boolean;
}

export interface NavAudience {
  /** The generic multi-campus instance (www). */
  generic: boolean;
  signedIn: boolean;
}

/**
 * Where 'add post' goes: the composer, or the auth landing for visitors (with
 * JavaScript the visitor's click opens the sign-in modal with reason 'post').
 */
export function createPostTarget(signedIn: boolean): string {
  return signedIn ? "/create/post" : "/user_registration";
}

/** Left side navigation on screens wider than 769 px (labels above 1000 px, icons only below). */
export function sideNavItems({ generic, signedIn }: NavAudience): NavItem[] {
  if (generic) {
    return [
      { label: "Home", to: "/home", icon: "home" },
      { label: "Find Your School", to: "/search_schools", icon: "school" },
      { label: "Settings", to: "/settings", icon: "settings" },
    ];
  }
  const items: NavItem[] = [
    { label: "Home", to: "/home", icon: "home" },
    { label: "Search", to: "/search", icon: "search" },
    { label: "Notifications", to: "/notifications", icon: "bell", badge: "notifications" },
    { label: "Messages", to: "/messages", icon: "message", badge: "chats" },
    { label: "Saved", to: "/saved", icon: "bookmark" },
  ];
  if (signedIn) items.push({ label: "Profile", to: "/profile", icon: "user" });
  items.push({ label: "Settings", to: "/settings", icon: "settings" });
  return items;
}

/** Mobile bottom bar, 769 px and below: five campus entries, or three on the generic instance. */
export function bottomBarItems({ generic, signedIn }: NavAudience): NavItem[] {
  if (generic) {
    return [
      { label: "Home", to: "/home", icon: "home" },
      { label: "Search schools", to: "/search_schools", icon: "school" },
      { label: "Settings", to: "/settings", icon: "settings", avatar: true },
    ];
  }
  return [
    { label: "Home", to: "/home", icon: "home" },
    { label: "Search", to: "/search", icon: "search" },
    { label: "Create post", to: createPostTarget(signedIn), icon: "plus" },
    { label: "Messages", to: "/messages", icon: "message", badge: "chats" },
    { label: "Notifications", to: "/notifications", icon: "bell", badge: "notifications" },
  ];
}

export interface UnreadCounts {
  /** Unread notifications plus unread chats: the header badge (spec 1 §2). */
  total: number;
  notifications: number;
  chats: number;
}

/**
 * Splits the root loader's counts for the badges. The root sends the sum as
 * `unreadCount`; per-kind counts arrive with notifications and chats (spec 1 §2 'Shell and layout').
 * Until a kind is reported, the remainder of the sum is shown on notifications.
 */
export function unreadCounts(root: {
  unreadCount: number;
  unreadNotifications?: number;
  unreadChats?: number;
}): UnreadCounts {
  const chats = Math.max(0, root.unreadChats ?? 0);
  const notifications = Math.max(0, root.unreadNotifications ?? root.unreadCount - chats);
  return { total: Math.max(0, root.unreadCount), notifications, chats };
}
