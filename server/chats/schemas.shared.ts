// The chat's rules, shared by the server and the browser (docs/architecture.md rule 11): limits,
// the messages of spec 2 §2, §4 and §8, and the counting rule. No server imports.
import { z } from "zod";
import { countPostCharacters, MAX_POST_CHARACTERS, plainTextToRichText } from "../posts/rich-text.shared";

/** spec 2 §5, §9: a message holds at most 500 characters, counted as posts are. */
export const MAX_MESSAGE_CHARACTERS = MAX_POST_CHARACTERS;
/** spec 2 §9: chat messages come in pages of 15. */
export const MESSAGE_PAGE_SIZE = 15;
/** The inbox's page (the spec gives none; the messages' 15). */
export const CHAT_LIST_PAGE_SIZE = 15;
/** spec 1 §5: the people search runs only when the text is longer than one character. */
export const MIN_PEOPLE_SEARCH_CHARACTERS = 2;
export const PEOPLE_SEARCH_LIMIT = 8;
/** Decision 0232: how many messages one person may send in a minute. */
export const MESSAGES_PER_MINUTE = 30;
/** Decision 0232: a chat message's text field as sent, before it is counted (a 500-character text with line breaks fits). */
export const MAX_MESSAGE_FIELD_LENGTH = 4_000;

export const CHAT_MESSAGES = {
  // spec 2 §8, character for character.
  tooManyCharacters: "Error: Too many characters!",
  onlyPhotosAndVideos: "Only photos & videos are allowed!",
  reactionSent: "Reaction sent.",
  newConversation: "New Conversation Started",
  couldntDeleteAll: "Couldn't delete all chat messages",
  chatDeleted: "Chat deleted",
  somethingWentWrong: "Something went wrong",
  postDeleted: "* Post deleted **",
  notFound: "This conversation doesn't exist",
  // spec 2 §2 'Messages'.
  notFoundDetail: "Something seems to have gone wrong...",
  emptyInbox: "Send a message, get a message",
  noneSelected: "You don't have a message selected",
  placeholder: "Say something . . .",
  // spec 1 §2 'Modals', §5.
  searchHint: "Try searching someone's name . . .",
  selectUser: "Please select a user!",
  startTitle: "Start Conversation?",
  // Decision 0233: reaction notices as the inbox's last message (spec 2 §4 gives no words).
  reacted: (firstName: string) => `${firstName} reacted ♥ to a message`,
  removedHeart: (firstName: string) => `${firstName} removed a heart`,
  photoPreview: "Sent a photo",
  postPreview: "Shared a post",
  // Ours (decisions 0230, 0232, 0233): rules the spec leaves without words.
  empty: "Write a message or add a photo.",
  onePhoto: "Only one photo can be sent in a message.",
  noVideos: "Only photos can be sent in a chat.",
  cannotMessageSelf: "You can't message yourself.",
  youBlocked: "You blocked this user",
  blockedYou: "You can't message this user.",
  // Decision 0571: the other side of a deleted account's conversation.
  deletedAccount: "Deleted account",
  accountDeleted: "This account has been deleted. You can't reply.",
  userBlocked: "User blocked",
  userUnblocked: "User unblocked",
  cannotBlockSelf: "You can't block yourself.",
  userNotFound: "This user doesn't exist.",
  sendingTooFast: "You're sending messages too fast. Please wait a minute.",
  onlyRecipientLikes: "Only the recipient can like a message.",
  badCursor: "This list could not be loaded. Please refresh the page.",
} as const;

/**
 * spec 2 §5: a message's characters by the posts' rule (decision 0080): code points, each line
 * break counting 2 (a message is plain text: each line is one paragraph of the rich-text rule).
 */
export function countMessageCharacters(text: string): number {
  return countPostCharacters(plainTextToRichText(text));
}

/** The composer form (spec 2 §2 'Say something . . .'): text, an optional shared post. */
export const messageFormSchema = z.object({
  text: z
    .string()
    .max(MAX_MESSAGE_FIELD_LENGTH, { error: CHAT_MESSAGES.tooManyCharacters })
    .optional()
    .transform((value) => value ?? ""),
  postId: z.string().max(64).optional(),
});
