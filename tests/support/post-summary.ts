// A post as the lists give it to the screens (PostSummary), for tests of what is shown of one.
import { plainTextToRichText } from "../../server/posts/rich-text.shared";
import { toRichTextView } from "../../server/posts/rich-text-schema.shared";
import type { PostSummary } from "../../server/posts/views";

/** A top-level listing 'Desk lamp, barely used' by Jamie R., with 3 saves; `overrides` changes any field. */
export function postSummary(overrides: Partial<PostSummary> = {}): PostSummary {
  return {
    id: "11111111-1111-4111-8111-111111111111",
    type: "post",
    campusId: "ou",
    author: {
      id: "u1",
      username: "jamier",
      firstName: "Jamie",
      lastName: "R.",
      img: null,
      verified: true,
      badge: { kind: "student", classOf: null, label: "Verified student" },
    },
    category: null,
    text: toRichTextView(plainTextToRichText("Desk lamp, barely used")),
    firstMedia: null,
    imgCount: 0,
    saveCount: 3,
    commentCount: 0,
    createdAt: new Date("2026-03-01T10:00:00Z"),
    lastModified: new Date("2026-03-01T10:00:00Z"),
    parentId: null,
    rootId: null,
    savedByViewer: false,
    hiddenBanner: null,
    ownedByViewer: false,
    listing: {
      priceCents: 4000,
      priceTerms: null,
      condition: "good",
      kind: "selling",
      status: "available",
      expired: false,
    },
    ...overrides,
  };
}
