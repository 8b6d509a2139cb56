import { describe, expect, it } from "vitest";
import { bottomBarItems, createPostTarget, sideNavItems, unreadCounts } from "./nav-model";

const targets = (items: { to: string }[]) => items.map((item) => item.to);

describe("bottom bar (spec 1 §2 'Shell and layout')", () => {
  it("has home, search, add post, messages and notifications on a campus", () => {
    const items = bottomBarItems({ generic: false, signedIn: true });
    expect(targets(items)).toEqual(["/home", "/search", "/create/post", "/messages", "/notifications"]);
    expect(items.filter((item) => item.badge).map((item) => item.badge)).toEqual(["chats", "notifications"]);
  });

  it("sends visitors who tap add post to sign up first", () => {
    const items = bottomBarItems({ generic: false, signedIn: false });
    expect(items[2]?.to).toBe("/user_registration");
    expect(createPostTarget(false)).toBe("/user_registration");
    expect(createPostTarget(true)).toBe("/create/post");
  });

  it("has home, search schools and a settings avatar on the generic instance", () => {
    const items = bottomBarItems({ generic: true, signedIn: false });
    expect(targets(items)).toEqual(["/home", "/search_schools", "/settings"]);
    expect(items[2]?.avatar).toBe(true);
  });
});

describe("side navigation", () => {
  it("lists the campus destinations, with Profile only for members", () => {
    expect(targets(sideNavItems({ generic: false, signedIn: false }))).toEqual([
      "/home",
      "/search",
      "/notifications",
      "/messages",
      "/saved",
      "/settings",
    ]);
    expect(targets(sideNavItems({ generic: false, signedIn: true }))).toContain("/profile");
  });

  it("points the generic instance at finding a school", () => {
    expect(targets(sideNavItems({ generic: true, signedIn: true }))).toEqual([
      "/home",
      "/search_schools",
      "/settings",
    ]);
  });
});

describe("unreadCounts", () => {
  it("keeps the sum for the header", () => {
    expect(unreadCounts({ unreadCount: 0 })).toEqual({ total: 0, notifications: 0, chats: 0 });
  });

  it("uses per-kind counts when the root sends them", () => {
    expect(unreadCounts({ unreadCount: 5, unreadNotifications: 2, unreadChats: 3 })).toEqual({
      total: 5,
      notifications: 2,
      chats: 3,
    });
  });

  it("shows an unattributed remainder on notifications", () => {
    expect(unreadCounts({ unreadCount: 4, unreadChats: 1 })).toEqual({
      total: 4,
      notifications: 3,
      chats: 1,
    });
    expect(unreadCounts({ unreadCount: 2 })).toEqual({ total: 2, notifications: 2, chats: 0 });
  });
});
