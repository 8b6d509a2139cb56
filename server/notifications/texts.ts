import type { NotificationType } from "../db/schema";
import { INDEFINITELY, suspensionPeriod } from "../moderation/rules.shared";
import { formatPrice } from "../posts/listing.shared";

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
  // Decision 0543: never shown after a name (a moderator's name is never shown to the student).
  moderation: "sent you a notice from the moderators",
  // Decision 0570: never shown after a name either; the list says 'Your data is ready to download.'
  "data export": "prepared your data",
  // Decision 0600: the trade's types are worded by their event (TRADE_WHAT); these are the fallbacks.
  offer: "updated an offer",
  deal: "updated your deal",
  meetup: "updated a meetup",
  review: "reviewed you",
  // Decision 0620: worded from their saved search or price drop when listed; these are the fallbacks.
  "search match": "posted a new match for your saved search",
  "price drop": "lowered the price of a post you saved",
  // Decision 0650: never shown after a name; the badge helper words it ('Confirm you're still a student').
  badge: "asks you to confirm your school e-mail",
};

/**
 * Decision 0600: what a trade notice says after the actor's name, by type and event. The
 * words never carry a review's text or private note (decision 0600): a notice only points to it.
 */
const TRADE_WHAT = {
  "offer:made": "made you an offer",
  "offer:countered": "countered your offer",
  "offer:accepted": "accepted your offer",
  "offer:declined": "declined your offer",
  "offer:withdrawn": "withdrew their offer",
  "offer:closed": "sold to someone else; your offer is no longer available",
  "offer:voided": "changed their listing; your offer is no longer available",
  "offer:expiring": "has an offer with you that expires in 2 hours",
  "offer:expired": "had an offer with you that expired",
  "deal:started": "reserved their listing for you",
  "deal:completed": "marked your deal completed",
  "deal:cancelled": "cancelled your deal",
  "meetup:proposed": "proposed a meetup",
  "meetup:accepted": "accepted your meetup",
  "meetup:reminder": "meets you in an hour",
  "review:received": "reviewed you — write yours to see it",
  "review:published": "has a review of you you can now read",
  "review:reminder": "is waiting for your review",
  "review:replied": "replied to your review",
} as const;
export type TradeEvent = keyof typeof TRADE_WHAT extends `${string}:${infer Event}` ? Event : never;

/** 'saved your post' — the words after the name; a trade notice's by its event. */
export function notificationWhat(type: NotificationType, event?: string | null): string {
  if (event) {
    const words = (TRADE_WHAT as Readonly<Record<string, string>>)[`${type}:${event}`];
    if (words) return words;
  }
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

/**
 * Where a notification leads: its chat, else its post (decision 0250); a review notice, and a
 * deal's completion, to the deal's review page (decision 0618).
 */
export function notificationHref(row: {
  postId: string | null;
  chatId: string | null;
  commentId?: string | null;
  type?: string | null;
  event?: string | null;
  dealId?: string | null;
}): string {
  if (row.dealId && (row.type === "review" || (row.type === "deal" && row.event === "completed"))) {
    return `/deals/${encodeURIComponent(row.dealId)}/review`;
  }
  if (row.chatId) return `/messages/${encodeURIComponent(row.chatId)}`;
  if (row.postId) return `/post/${row.postId}`;
  return "/notifications";
}

/**
 * Decision 0621: a saved search's instant notice, named after the search: 'New match for "desk
 * lamp"', or '3 new matches for "desk lamp"' when several arrived together (one notice).
 */
export function searchMatchText(searchName: string, matches: number): string {
  return matches > 1 ? `${matches} new matches for "${searchName}"` : `New match for "${searchName}"`;
}

/** Decision 0640: the drop a 'price drop' notice names, with its listing's text. */
export interface PriceDropNotice {
  fromCents: number | null;
  toCents: number | null;
  /** The listing's text_plain now (its first line is the title). */
  listingText: string | null;
}

/** Decision 0640: how long a listing's title may be in a notice before it is cut with '…'. */
const TITLE_CHARACTERS = 80;

/** A listing's title as notices name it: its first line, cut at TITLE_CHARACTERS. */
export function listingTitle(textPlain: string): string {
  const line =
    textPlain
      .split("\n")
      .find((candidate) => candidate.trim() !== "")
      ?.trim() ?? "";
  if (line === "") return "a listing you saved";
  const characters = [...line];
  return characters.length > TITLE_CHARACTERS
    ? `${characters.slice(0, TITLE_CHARACTERS - 1).join("")}…`
    : line;
}

/**
 * Decision 0640: 'Price drop: {title} is now $X (was $Y)' — the bell, the push and the e-mail
 * all say it this way (0 reads 'Free').
 */
export function priceDropText(drop: { fromCents: number; toCents: number; listingText: string }): string {
  return `Price drop: ${listingTitle(drop.listingText)} is now ${formatPrice(drop.toCents)} (was ${formatPrice(drop.fromCents)})`;
}

/** Decision 0621: the saved search a 'search match' notice names, and the listings it counts. */
export interface SearchMatchNotice {
  name: string | null;
  /** The search's stored query string (its results' address). */
  query: string | null;
  /** The hits stamped with the notice's time (several arrived together: one notice). */
  matches: number | null;
}

/**
 * A notice's whole line: a price drop's own words (decision 0640), a search match's (decision
 * 0621), else the actor's name and what they did. The one place the bell, the push and the
 * e-mail word a line.
 */
export function noticeLine(
  item: {
    type: NotificationType;
    event?: string | null;
    priceDrop?: PriceDropNotice | null;
    searchMatch?: SearchMatchNotice | null;
  },
  actors: string,
): string {
  const drop = item.type === "price drop" ? item.priceDrop : null;
  if (drop && drop.fromCents !== null && drop.toCents !== null)
    return priceDropText({
      fromCents: drop.fromCents,
      toCents: drop.toCents,
      listingText: drop.listingText ?? "",
    });
  const search = item.type === "search match" ? item.searchMatch : null;
  if (search?.name) return searchMatchText(search.name, Number(search.matches ?? 1));
  return `${actors} ${notificationWhat(item.type, item.event)}`;
}

/**
 * Decision 0621: where a search match leads — the one listing (`listingHref`), or the search's
 * results when the notice counts several; the list and the e-mail alike.
 */
export function searchMatchHref(search: SearchMatchNotice, listingHref: string): string {
  return Number(search.matches ?? 1) > 1 && search.query ? `/search?${search.query}` : listingHref;
}

/** The kinds people turn e-mail on or off for (decision 0251 settings page; price drops, decision 0640). */
export type EmailKind = "comments" | "saves" | "messages" | "priceDrops";

export function emailKindOf(type: NotificationType): EmailKind {
  switch (type) {
    case "like":
    case "available again":
    // Decision 0620: about what the student saved (a search's e-mails follow its own cadence).
    case "search match":
      return "saves";
    // Decision 0640: a kind of its own in /settings/notifications.
    case "price drop":
      return "priceDrops";
    case "message":
    case "message like":
    case "new chat":
    // The trade happens in conversations (decision 0600): its notices follow the messages' setting.
    case "offer":
    case "deal":
    case "meetup":
    case "review":
      return "messages";
    default:
      return "comments";
  }
}

/** Decision 0543: what a moderation notice is about, from its moderation log row. */
export interface ModerationNotice {
  action: string;
  targetKind: string;
  publicReason: string | null;
  /** ISO time the suspension ends (Suspend, Ban), from the log row's details. */
  suspendedUntil: string | null;
}

const NOUNS: Readonly<Record<string, string>> = {
  post: "listing",
  comment: "comment",
  message: "message",
  user: "profile",
};

/**
 * Decision 0543: what a moderation notice says, in the notification list and as the e-mail's
 * heading: what was done, never by whom ('Moderators', whoever acted).
 */
export function moderationNoticeHeading(notice: ModerationNotice): string {
  const noun = NOUNS[notice.targetKind] ?? "post";
  const until = notice.suspendedUntil ? new Date(notice.suspendedUntil) : INDEFINITELY;
  switch (notice.action) {
    case "dismiss":
      return `Moderators reviewed the reports about your ${noun} and kept it up.`;
    case "remove":
      return `Moderators removed your ${noun}.`;
    case "warn":
      return `Moderators warned you about your ${noun}.`;
    case "suspend":
      return `Moderators suspended your account ${suspensionPeriod(until)}.`;
    case "ban":
      return "Moderators banned your account.";
    case "restore":
      return `Moderators restored your ${noun}.`;
    case "lift":
      return "Moderators lifted your suspension.";
    case "note":
      return "A note from the moderators.";
    case "approve_appeal":
      return "Your appeal was approved: the strike is overruled.";
    case "reject_appeal":
      return "Your appeal was rejected.";
    default:
      return "Moderators acted on your account.";
  }
}

/** The notice's line in the list: the heading, then the public reason (or the note) in quotes. */
export function moderationNoticeText(notice: ModerationNotice): string {
  const heading = moderationNoticeHeading(notice);
  if (!notice.publicReason) return heading;
  return notice.action === "note"
    ? `${heading} “${notice.publicReason}”`
    : `${heading} Reason: “${notice.publicReason}”`;
}

/** Decision 0570: where a student downloads and deletes their data. */
export const DATA_PAGE_PATH = "/settings/account/data";
/** Decision 0570: the notice that the archive is ready; the one-time link is only in the e-mail. */
export const DATA_EXPORT_NOTICE = "Your data is ready to download: the link is in the e-mail we sent you.";
