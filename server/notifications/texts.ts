import type { NotificationType } from "../db/schema";

/**
 * What a notification says after the actor's name (decision 0250 'names who, what and when'),
 * shared by the list and the e-mail. One place, so the two never disagree.
 */
const WHAT: Record<NotificationType, string> = {
  like: "saved your post",
  comment: "commented on your post",
  "comment reply": "replied to your comment",
  "comment interaction": "replied in a thread you commented in",
  "post interaction": "replied to a comment on your post",
  message: "sent you a message",
  "message like": "reacted to your message",
  "new chat": "started a conversation with you",
  "available again": "has a post you saved available again",
};

/** 'saved your post' — the words after the name. */
export function notificationWhat(type: NotificationType): string {
  return WHAT[type];
}

/** 'Ana S.', 'Ana S. and Ben K.', 'Ana S. and 4 others' (grouping, decision 0250). */
export function actorsPhrase(firstActor: string, others: number, secondActor?: string | null): string {
  if (others <= 0) return firstActor;
  if (others === 1 && secondActor) return `${firstActor} and ${secondActor}`;
  return `${firstActor} and ${others} ${others === 1 ? "other" : "others"}`;
}

export function displayName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}

/** Where a notification leads: its chat, else its post (decision 0250). */
export function notificationHref(row: {
  postId: string | null;
  chatId: string | null;
  commentId?: string | null;
}): string {
  if (row.chatId) return `/messages/${encodeURIComponent(row.chatId)}`;
  if (row.postId) return `/post/${row.postId}`;
  return "/notifications";
}

/** The three kinds people turn e-mail on or off for (decision 0251 settings page). */
export type EmailKind = "comments" | "saves" | "messages";

export function emailKindOf(type: NotificationType): EmailKind {
  switch (type) {
    case "like":
    case "available again":
      return "saves";
    case "message":
    case "message like":
    case "new chat":
      return "messages";
    default:
      return "comments";
  }
}
