import { randomBytes } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import express from "express";
import sharp from "sharp";
import { z } from "zod";
import { findFreeUsername } from "../accounts/accounts";
import type { Auth } from "../accounts/auth";
import { normaliseNames, usernameBase } from "../accounts/names.shared";
import { getViewerById } from "../accounts/viewer";
import { getCampus } from "../campuses/campuses";
import type { Config } from "../config";
import type { AppContext } from "../context";
import { isUniqueViolation } from "../db/errors";
import { account, posts, user } from "../db/schema";
import { createComment } from "../posts/comments";
import { insertNewUserPost } from "../posts/new-user-post";
import { createPost } from "../posts/posts";
import { plainTextToRichText } from "../posts/rich-text.shared";
import { updateProfilePhoto } from "../profiles/profiles";
import { grantRole } from "../staff/roles";

/**
 * Decision 0155: the end-to-end fixture that makes a student who may post (spec 2
 * §5: e-mail verified, school e-mail verified, photo and bio) in one request, as the demo seed
 * makes its students (server/db/seed.ts), and signs them in. The embedded database belongs to
 * the app process, so the browser tests cannot write the rows themselves.
 *
 * It exists only outside production AND when the process was started with TEST_FIXTURES=1
 * (the e2e harness does); test-student.test.ts proves it is absent otherwise.
 */
export const TEST_STUDENT_PATH = "/dev/test-student";

export function testFixturesEnabled(config: Pick<Config, "production" | "testFixtures">): boolean {
  return !config.production && config.testFixtures;
}

const requestSchema = z
  .object({
    /** The campus id (its host's slug); default OU, as localhost serves. */
    campus: z.string().trim().min(1).max(40).default("ou"),
    fullName: z.string().trim().min(3).max(40).default("Jamie Rivera"),
    /** Readable part of the addresses, for a failing test's log. */
    label: z
      .string()
      .regex(/^[a-z0-9-]{1,30}$/)
      .default("student"),
    /** false: no school e-mail (a signed-up, e-mail-verified student, as after the mailed code). */
    school: z.boolean().default(true),
    /**
     * Decision 0680: the class year given at school verification, as the school step now asks it
     * (absent: next year by the clock); null: none yet, a student verified before it was asked
     * (the year banner asks, decision 0682).
     */
    gradYear: z.number().int().min(2000).max(2100).nullable().optional(),
    /** false: a student without photo and bio (profile_set_up false), for the posting gate. */
    profile: z.boolean().default(true),
    /** Decision 0660: signed up this many days before the clock's now (7 makes a Basic member). */
    ageDays: z.number().int().min(0).max(3650).default(0),
    /** Decision 0520: a site admin, as `npm run staff -- grant admin` would make them (logged as the command's). */
    siteAdmin: z.boolean().default(false),
    /** Decision 0520: a moderator of their own campus, as `npm run staff -- grant moderator` would make them. */
    moderator: z.boolean().default(false),
    /** Posts made through createPost (every rule applies), oldest first, each with `photos` generated photos. */
    posts: z
      .array(
        z
          .object({
            text: z.string().min(1).max(1000),
            photos: z.number().int().min(0).max(4).default(0),
            category: z.string().max(60).nullable().default(null),
            /** The student's own thread under it: the first replies to the post, each next to the one before. */
            thread: z.array(z.string().min(1).max(500)).max(5).default([]),
            /** Decision 0546: the post as reports left it ('hidden') or a moderator ('removed'), set after it is made. */
            moderationState: z.enum(["hidden", "removed"]).nullable().default(null),
          })
          .strict(),
      )
      .max(20)
      .default([]),
    /** Decision 0547: suspended until then (ISO time), set after the posts are made. */
    suspendedUntil: z.iso.datetime().nullable().default(null),
  })
  .strict();

export type TestStudentRequest = z.input<typeof requestSchema>;

export interface TestStudent {
  id: string;
  email: string;
  password: string;
  fullName: string;
  firstName: string;
  lastName: string;
  username: string;
  campusId: string;
  schoolEmail: string | null;
  /** The ids of the posts asked for, in the order asked. */
  postIds: string[];
  /** The session cookie, to add to the browser for the campus host. */
  cookie: { name: string; value: string };
}

const PASSWORD = "campus-pass-1";
const BIO = "Selling what I no longer need.";

/** A small real photo of one colour, as a browser would upload it. */
async function photo(width = 64, height = 64, background = "#3a7bd5"): Promise<Uint8Array> {
  const png = await sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}

const PHOTO_COLOURS = ["#1e6eb4", "#c8a028", "#28a050", "#b42828"];

export async function createTestStudent(ctx: AppContext, auth: Auth, input: unknown): Promise<TestStudent> {
  const options = requestSchema.parse(input);
  const campus = await getCampus(ctx.db, options.campus);
  const domain = campus?.domains[0];
  if (!campus || !domain) throw new RangeError(`no school campus "${options.campus}"`);
  const { firstName, lastName } = normaliseNames(options.fullName);
  const local = `${options.label}-${randomBytes(6).toString("hex")}`;
  const email = `${local}@e2e.campusbuysell.test`;
  // A subdomain of the campus domain, as the seed's students have: a member, and no one's mailbox.
  const schoolEmail = `${local}@e2e.${domain}`;
  const id = crypto.randomUUID();
  const now = ctx.clock.now();
  const password = await hashPassword(PASSWORD);

  let username = "";
  // Two workers may pick the same free username at once; the unique index refuses the second.
  for (let attempt = 1; !username; attempt++) {
    const candidate = await findFreeUsername(ctx.db, usernameBase(firstName, lastName));
    try {
      await ctx.db.transaction(async (tx) => {
        await tx.insert(user).values({
          id,
          name: `${firstName} ${lastName}`,
          email,
          verified: true,
          firstName,
          lastName,
          username: candidate,
          campusId: campus.id,
          schoolEmail: options.school ? schoolEmail : null,
          schoolVerified: options.school,
          // Decision 0680: the badge's 12 months start now; the class year the school step asked.
          schoolVerifiedAt: options.school ? now : null,
          gradYear: !options.school
            ? null
            : options.gradYear === undefined
              ? now.getUTCFullYear() + 1
              : options.gradYear,
          bio: options.profile ? BIO : null,
          createdAt: new Date(now.getTime() - options.ageDays * 86_400_000),
          updatedAt: now,
        });
        await tx.insert(account).values({
          id: crypto.randomUUID(),
          accountId: id,
          providerId: "credential",
          userId: id,
          password,
          createdAt: now,
          updatedAt: now,
        });
        // As verifying the school e-mail does (server/accounts/school.ts): the 'joined' post.
        if (options.school) await insertNewUserPost(tx, { authorId: id, campusId: campus.id, at: now });
      });
      username = candidate;
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error, "user_username_unique")) throw error;
    }
  }
  if (options.siteAdmin) {
    await ctx.db.transaction((tx) =>
      grantRole(tx, ctx.clock.now(), id, { role: "site_admin", campusId: null }, { source: "command" }),
    );
  }
  if (options.moderator) {
    await ctx.db.transaction((tx) =>
      grantRole(
        tx,
        ctx.clock.now(),
        id,
        { role: "campus_moderator", campusId: campus.id },
        { source: "command" },
      ),
    );
  }
  // The photo sets profile_set_up, the bio being there (spec 1 §4).
  if (options.profile) await updateProfilePhoto(ctx, { id }, await photo());

  const postIds: string[] = [];
  if (options.posts.length > 0) {
    const viewer = await getViewerById(ctx, id);
    for (const post of options.posts) {
      const files = await Promise.all(
        PHOTO_COLOURS.slice(0, post.photos).map(
          async (colour, n) =>
            new File([Buffer.from(await photo(600, 450, colour))], `photo-${n + 1}.png`, {
              type: "image/png",
            }),
        ),
      );
      const created = await createPost(ctx, viewer, {
        campusId: campus.id,
        text: JSON.stringify(plainTextToRichText(post.text)),
        category: post.category,
        files,
      });
      postIds.push(created.id);
      let parent = created.id;
      for (const reply of post.thread) {
        const text = JSON.stringify(plainTextToRichText(reply));
        parent = (await createComment(ctx, viewer, { postId: parent, text, files: [] })).id;
      }
      if (post.moderationState) {
        await ctx.db
          .update(posts)
          .set({ moderationState: post.moderationState })
          .where(eq(posts.id, created.id));
      }
    }
  }
  if (options.suspendedUntil) {
    await ctx.db
      .update(user)
      .set({ suspendedUntil: new Date(options.suspendedUntil) })
      .where(eq(user.id, id));
  }

  const signedIn = await auth.api.signInEmail({
    body: { email, password: PASSWORD },
    headers: new Headers({ "user-agent": "e2e fixture" }),
    returnHeaders: true,
  });
  const pair = signedIn.headers
    .getSetCookie()
    .map((header) => header.split(";")[0] ?? "")
    .find((cookie) => cookie.includes("session_token="));
  if (!pair) throw new Error("sign-in set no session cookie");
  const split = pair.indexOf("=");
  return {
    id,
    email,
    password: PASSWORD,
    fullName: options.fullName,
    firstName,
    lastName,
    username,
    campusId: campus.id,
    schoolEmail: options.school ? schoolEmail : null,
    postIds,
    cookie: { name: pair.slice(0, split), value: pair.slice(split + 1) },
  };
}

/** Mounts `POST /dev/test-student` when, and only when, testFixturesEnabled(config). */
export function mountTestFixtures(app: express.Express, deps: { ctx: AppContext; auth: Auth }): void {
  if (!testFixturesEnabled(deps.ctx.config)) return;
  deps.ctx.log.warn(
    "TEST_FIXTURES=1: POST /dev/test-student creates signed-in students (never in production)",
  );
  // Which process answered: the two-process tests (tests/e2e/scale-out.spec.ts) see the load spread.
  app.get("/dev/process", (_req, res) => {
    res.json({ pid: process.pid });
  });
  app.post(TEST_STUDENT_PATH, express.json({ limit: "2kb" }), async (req, res, next) => {
    try {
      res.status(201).json(await createTestStudent(deps.ctx, deps.auth, req.body ?? {}));
    } catch (error) {
      if (error instanceof z.ZodError || error instanceof RangeError) {
        res
          .status(400)
          .json({ message: error instanceof z.ZodError ? z.prettifyError(error) : error.message });
      } else next(error);
    }
  });
}
