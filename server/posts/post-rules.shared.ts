// The composer's rules, shared by the server and the browser (docs/architecture.md rule 11): limits,
// accepted files and the messages of spec 2 §5 and §8. No Zod, so a page that only shows them
// does not load it (decision 0340); the form schemas are in schemas.ts. No server imports.

/** spec 2 §5, §9: at most 10 photos or videos per post (and per comment). */
export const MAX_POST_FILES = 10;
/** Decision 0082: the size caps of one uploaded file, as sent. */
export const MAX_POST_IMAGE_MB = 15;
export const MAX_POST_VIDEO_MB = 100;
export const MAX_POST_IMAGE_BYTES = MAX_POST_IMAGE_MB * 1024 * 1024;
export const MAX_POST_VIDEO_BYTES = MAX_POST_VIDEO_MB * 1024 * 1024;
/** spec 2 §5: the picker allows multiple selection only while fewer than 3 files are held. */
export const MULTI_SELECT_BELOW_FILES = 3;

/**
 * spec 2 §5 'Allowed extensions: jpeg, jpg, png, gif, webp, mp4, mov, avi, quicktime',
 * for the file input's `accept`. The server decides by content, not by this list.
 */
export const POST_FILE_ACCEPT =
  ".jpeg,.jpg,.png,.gif,.webp,.mp4,.mov,.avi,.qt,image/jpeg,image/png,image/gif,image/webp,video/mp4,video/quicktime,video/x-msvideo,video/avi";

/** Page sizes of spec 2 §9. The feed's is per campus (`campuses.feed_page_size`: 15, or 25). */
export const PAGE_SIZES = {
  media: 15,
  saved: 10,
  profile: 10,
  savers: 30,
} as const;

export const POST_MESSAGES = {
  // spec 2 §8, character for character.
  tooManyCharacters: "Error: Too many characters!",
  somethingWentWrong: "Something went wrong.",
  tooManyFiles: "Please choose up to 10 photos.",
  onlyPhotosAndVideos: "Only photos & videos are allowed!",
  posted: "Posted! Your post was sent.",
  replySent: "Your reply was sent",
  postDeleted: "Your post was deleted",
  commentRemoved: "Comment Removed",
  postSaved: "Post saved.",
  postGone: "Sorry, that post has been deleted.",
  couldntDeleteImages: "Couldn't delete post images",
  // spec 2 §2 'Modals' profile incomplete.
  profileIncompleteTitle: "Your profile is not complete",
  profileIncompleteBody: "Please pick a profile picture and add a bio before posting",
  // spec 2 §1: a private community's gate for visitors.
  privateCommunity: "This community is private",
  // Ours (decision 0082): the spec has a rule here but no words.
  empty: "Write something or add a photo.",
  unknownCategory: "Choose a category from the list.",
  fileTooLarge: `Photos can be up to ${MAX_POST_IMAGE_MB} MB and videos up to ${MAX_POST_VIDEO_MB} MB.`,
  photoTooManyPixels: "This photo is too big to process. Try a smaller one.",
  photoUnreadable: "This photo could not be read. Try another one.",
  // Decision 0121: videos are stored without their metadata (where they were filmed), or not at all.
  videoUnreadable: "This video could not be read. Try another one.",
  videoMetadataKept:
    "This video holds details we can't remove, such as where it was filmed, so it wasn't posted. Try another video.",
  otherCampus: "You can only post and comment in your own campus.",
  cannotReply: "You can't reply to this post.",
  /** Decision 0462 (ours): a block stands between the commenter and the post's or comment's author. */
  cannotCommentBlocked: "You can't comment on this user's posts.",
  cannotSave: "Only posts can be saved.",
  notYours: "You can only delete your own posts and comments.",
  badCursor: "This list could not be loaded. Please refresh the page.",
  // Ours (decision 0116): the posting limit, saying when to try again ('1 minute', '3 hours').
  postingTooFast: (wait: string) => `You're posting too fast. Please try again in ${wait}.`,
  dailyPostLimit: (limit: number, wait: string) =>
    `You've posted ${limit} times in the last 24 hours, the most allowed. Please try again in ${wait}.`,
} as const;

/** Decision 0640 (ours): editing a listing. */
export const EDIT_MESSAGES = {
  saved: "Your listing was updated.",
  /** Nothing was changed: the form was sent as it was. */
  unchanged: "Nothing was changed.",
  underReview: "This listing is waiting for a moderator's review, so it can't be edited until then.",
  tooSoon: "You just edited this listing. Try again in a few seconds.",
  edited: "Edited",
} as const;
