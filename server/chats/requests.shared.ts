// 'Who can message me' and Requests (decisions 0670, 0671), shared by the server and the browser:
// the setting's choices and words, the Requests tab's words. No server imports.
import { z } from "zod";

/** Decision 0670: 'anyone' is the spec's behaviour and the default; 'known' keeps strangers' first messages in Requests. */
export const MESSAGE_POLICIES = ["anyone", "known"] as const;
export type MessagePolicy = (typeof MESSAGE_POLICIES)[number];

export const MESSAGE_POLICY_LABELS: Record<MessagePolicy, string> = {
  anyone: "Anyone on my campus",
  known: "People I've traded with or written to first",
};

export const messagePolicySchema = z.object({
  policy: z.enum(MESSAGE_POLICIES, { error: "Please choose who can message you." }),
});
export type MessagePolicyInput = z.input<typeof messagePolicySchema>;

export const REQUEST_MESSAGES = {
  settingTitle: "Who can message me",
  settingNote:
    "Other first messages wait in Requests, a tab of Messages: no e-mail, no notification, only its count. The sender is not told.",
  chatsTab: "Chats",
  requestsTab: "Requests",
  emptyRequests: "No message requests",
  emptyRequestsDetail: "First messages from people you don't know yet wait here.",
  banner: (firstName: string) =>
    `${firstName} wants to message you. Accept to move this conversation to your chats; ${firstName} won't know you've seen it until then.`,
  accept: "Accept",
  decline: "Decline",
  block: "Block",
  accepted: "Moved to your chats",
  declined: "Request declined",
  blocked: "User blocked",
  notARequest: "This request doesn't exist",
} as const;

/** The intents of a request's forms (the list's and the opened request's). */
export const REQUEST_INTENTS = ["accept-request", "decline-request", "block-request"] as const;
export type RequestIntent = (typeof REQUEST_INTENTS)[number];
