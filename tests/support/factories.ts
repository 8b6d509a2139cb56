// Test factories (docs/architecture.md rule 10: each test makes what it needs).
import { and, desc, eq } from "drizzle-orm";
import sharp from "sharp";
import { registerUser } from "../../server/accounts/accounts";
import { getViewerById, type Viewer } from "../../server/accounts/viewer";
import { mailOutbox, user } from "../../server/db/schema";
import { createComment } from "../../server/posts/comments";
import type { ListingInput } from "../../server/posts/input";
import { createPost } from "../../server/posts/posts";
import { plainTextToRichText } from "../../server/posts/rich-text.shared";
import type { TestContext } from "./test-context";
import { minimalMovie } from "./video-files";

let sequence = 0;

/** A unique e-mail address per call, so tests in one file do not collide. */
export function uniqueEmail(prefix = "student"): string {
  sequence++;
  return `${prefix}${sequence}.${process.pid}@example.edu`;
}

/** Request headers as a browser would send them: a session cookie, a user agent, the client address. */
export function requestHeaders(options: { cookie?: string; ip?: string } = {}): Headers {
  const headers = new Headers({ "user-agent": "vitest" });
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.ip) headers.set("x-cbs-client-ip", options.ip);
  return headers;
}

/** The Cookie header a browser would send back after a response's Set-Cookie headers. */
export function cookieFrom(responseHeaders: Headers): string {
  return responseHeaders
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((pair) => pair && !pair.endsWith("="))
    .join("; ");
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
  /** Cookie header of the session the sign-up opened. */
  cookie: string;
}

export interface TestUserOptions {
  fullName?: string;
  email?: string;
  password?: string;
  campusId?: string;
  verified?: boolean;
  banned?: boolean;
}

/** A user signed up through the real sign-up path (so a code mail is queued too). */
export async function createTestUser(t: TestContext, options: TestUserOptions = {}): Promise<TestUser> {
  const fullName = options.fullName ?? "Test Student";
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? "secret123";
  const signedIn = await registerUser(
    t.ctx,
    t.auth,
    { fullName, email, password, terms: true },
    // No client address: the sign-ups-per-address limit is tested on its own (accounts.test.ts).
    { campusId: options.campusId ?? "ou", clientIp: null, headers: requestHeaders() },
  );
  if (options.verified || options.banned) {
    await t.ctx.db
      .update(user)
      .set({ verified: options.verified ?? false, banned: options.banned ?? false })
      .where(eq(user.id, signedIn.userId));
  }
  return {
    id: signedIn.userId,
    email: email.toLowerCase(),
    password,
    fullName,
    cookie: cookieFrom(signedIn.headers),
  };
}

/** The newest queued mail of a kind to an address. */
export async function lastMailTo(t: TestContext, email: string, kind: string) {
  const [row] = await t.ctx.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email.toLowerCase()), eq(mailOutbox.kind, kind)))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  if (!row) throw new Error(`no ${kind} mail to ${email}`);
  return row;
}

/** The code in the newest code mail to an address: its only 4-digit number (docs/contract.md 'Mail'). */
export async function lastCodeMailedTo(t: TestContext, email: string): Promise<string> {
  const mail = await lastMailTo(t, email, "verification-code");
  const found = `${mail.subject}\n${mail.text}`.match(/\b\d{4}\b/g) ?? [];
  if (found.length !== 1 || !found[0])
    throw new Error(`expected one 4-digit code, found ${found.join(", ")}`);
  return found[0];
}

// ---------------------------------------------------------------------------
// Posts (spec 2 §3).

export interface TestMemberOptions extends TestUserOptions {
  /** Default true: a member who may post (spec 2 §5 gates). */
  schoolVerified?: boolean;
  /** Default true: photo and bio set (spec 1 §5 profile_set_up). */
  profileSetUp?: boolean;
  /** Signed up this many days before the clock's now (7 makes a Basic member, decision 0660). */
  ageDays?: number;
  /** Decision 0680: the class year the school step asked; default none. */
  gradYear?: number | null;
}

export interface TestMember extends TestUser {
  /** The viewer as a request of this user would carry it, for domain calls. */
  viewer: Viewer;
}

/** The viewer of a user as stored now (after a test changed the row). */
export async function viewerOf(t: TestContext, userId: string): Promise<Viewer> {
  const viewer = await getViewerById(t.ctx, userId);
  if (!viewer) throw new Error(`no user ${userId}`);
  return viewer;
}

/**
 * A campus member who passes every posting gate unless told otherwise: e-mail and
 * school verified, profile set up (photo and bio), on `campusId` (default 'ou').
 */
export async function createTestMember(t: TestContext, options: TestMemberOptions = {}): Promise<TestMember> {
  const created = await createTestUser(t, { verified: true, ...options });
  const schoolVerified = options.schoolVerified ?? true;
  const profileSetUp = options.profileSetUp ?? true;
  await t.ctx.db
    .update(user)
    .set({
      schoolVerified,
      schoolEmail: schoolVerified ? `school.${created.email}` : null,
      // Decision 0680: as a code confirmed it just now (the badge's 12 months start).
      schoolVerifiedAt: schoolVerified ? t.clock.now() : null,
      gradYear: options.gradYear ?? null,
      profileSetUp,
      bio: profileSetUp ? "Selling my textbooks." : null,
      img: profileSetUp ? `/media-files/images/profilePics/${created.id}/photo-480.webp` : null,
      ...(options.ageDays
        ? { createdAt: new Date(t.clock.now().getTime() - options.ageDays * 86_400_000) }
        : {}),
    })
    .where(eq(user.id, created.id));
  return { ...created, viewer: await viewerOf(t, created.id) };
}

export interface TestPostOptions {
  /** Plain text, one paragraph per line (default 'A post'); null for none. */
  text?: string | null;
  category?: string | null;
  files?: Blob[];
  /** Decision 0170: price ('40', 'free'), terms, condition, kind. */
  listing?: ListingInput;
}

/** A top-level post through createPost (so every rule and counter applies), on the author's campus. */
export async function createTestPost(t: TestContext, author: Viewer, options: TestPostOptions = {}) {
  const text = options.text === undefined ? "A post" : options.text;
  return createPost(t.ctx, author, {
    campusId: author.campusId,
    text: text === null ? null : JSON.stringify(plainTextToRichText(text)),
    category: options.category ?? null,
    files: options.files ?? [],
    listing: options.listing ?? null,
  });
}

/** A reply to a post or comment through createComment. */
export async function createTestComment(
  t: TestContext,
  author: Viewer,
  postId: string,
  options: { text?: string; files?: Blob[] } = {},
) {
  return createComment(t.ctx, author, {
    postId,
    text: JSON.stringify(plainTextToRichText(options.text ?? "A reply")),
    files: options.files ?? [],
  });
}

/** A real PNG made by sharp, as a browser's File. */
export async function pngFile(
  name = "photo.png",
  size: { width: number; height: number } = { width: 64, height: 48 },
) {
  const bytes = await sharp({
    create: { width: size.width, height: size.height, channels: 3, background: { r: 200, g: 60, b: 40 } },
  })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], name, { type: "image/png" });
}

/** A small MP4 that parses (file type, movie header, media data) and carries no metadata. */
export function mp4File(name = "clip.mp4", payloadBytes = 2048): File {
  return new File([new Uint8Array(minimalMovie(payloadBytes))], name, { type: "video/mp4" });
}

/** A text file with a photo's name: its content decides, so it is refused. */
export function textFileNamedPng(name = "notes.png"): File {
  return new File(["just some notes, not a picture\n"], name, { type: "image/png" });
}
