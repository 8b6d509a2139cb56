import { and, eq, isNull, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { type StudentBadge, studentBadge } from "../accounts/badge.shared";
import type { Viewer } from "../accounts/viewer";
import type { AppContext } from "../context";
import { user } from "../db/schema";
import {
  deleteStoredKeys,
  isMediaError,
  type MediaErrorCode,
  PROFILE_PHOTO_VARIANTS,
  processImage,
  type StoredVariant,
  storeImage,
  variantKey,
} from "../media/images";
import { PROFILE_PHOTO_TYPES, profilePhotoSizes } from "../media/limits.shared";
import type { MediaStorage } from "../media/storage";
import { requireReadableCampus } from "../posts/access";
import { recountTrustLevel } from "../trust/recount";
import { parseInput } from "../validation";
import { invalidProfileInput, ProfileError } from "./errors";
import {
  type EditProfileInput,
  editProfileSchema,
  PROFILE_MESSAGES,
  type ProfileNamesInput,
  profileNamesSchema,
  setUpBioSchema,
} from "./schemas.shared";

/** Who is acting: the signed-in user (only the id matters here). */
export interface Actor {
  id: string;
}

/**
 * What anyone may see of a user (spec 1 §2 'Profile page', §6: gender is not
 * shown publicly). Never the e-mail, phone, gender or birth date.
 */
export interface PublicProfile {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  /** The large (480 px) photo; see profilePhotoSizes() for the small one. */
  img: string | null;
  bio: string | null;
  /** The school is verified (the account's gates). */
  schoolVerified: boolean;
  /** The verified badge (spec 1 §2 'Profile header') as the clock reads it now (decision 0680). */
  badge: StudentBadge | null;
  /** The e-mail is verified; unverified profiles offer 'Claim this account'. */
  verified: boolean;
  profileSetUp: boolean;
  totalPosts: number;
  campusId: string;
}

const publicColumns = {
  id: user.id,
  username: user.username,
  firstName: user.firstName,
  lastName: user.lastName,
  img: user.img,
  bio: user.bio,
  schoolVerified: user.schoolVerified,
  schoolVerifiedAt: user.schoolVerifiedAt,
  gradYear: user.gradYear,
  verified: user.verified,
  profileSetUp: user.profileSetUp,
  totalPosts: user.totalPosts,
  campusId: user.campusId,
};

/**
 * The profile at /{username} (usernames are stored lower case, spec 1 §3), or null.
 * Banned accounts are gone from the community (spec 1 §6): their page does not exist.
 */
export async function getProfileByUsername(ctx: AppContext, username: string): Promise<PublicProfile | null> {
  const [row] = await ctx.db
    .select(publicColumns)
    .from(user)
    .where(
      and(eq(user.username, username.trim().toLowerCase()), eq(user.banned, false), isNull(user.deletedAt)),
    )
    .limit(1);
  return row ? toPublicProfile(row, ctx.clock.now()) : null;
}

/** A row of publicColumns as pages show it: the badge read at `now`, never its dates. */
function toPublicProfile(
  row: Omit<PublicProfile, "badge"> & { schoolVerifiedAt: Date | null; gradYear: number | null },
  now: Date,
): PublicProfile {
  const { schoolVerifiedAt, gradYear, ...profile } = row;
  return {
    ...profile,
    badge: studentBadge({ schoolVerified: row.schoolVerified, schoolVerifiedAt, gradYear }, now),
  };
}

/**
 * The profile of spec 1 §2 '/{username}' on the campus the page is served for (`campusId`), as
 * `viewer` may see it. Decision 0071's one privacy rule covers a private campus's people as it
 * covers its posts (decision 0135): a signed-out visitor of a private campus learns nothing of its
 * members, not even a name, a photo or whether the username exists, and gets PostError
 * 'private-campus' (the 'This community is private' gate). Null when there is no such profile.
 */
export async function getProfilePage(
  ctx: AppContext,
  viewer: Viewer | null,
  campusId: string,
  username: string,
): Promise<PublicProfile | null> {
  requireReadableCampus(ctx, viewer, campusId);
  return getProfileByUsername(ctx, username);
}

export async function getProfileById(ctx: AppContext, userId: string): Promise<PublicProfile | null> {
  const [row] = await ctx.db
    .select(publicColumns)
    .from(user)
    .where(and(eq(user.id, userId), eq(user.banned, false), isNull(user.deletedAt)))
    .limit(1);
  return row ? toPublicProfile(row, ctx.clock.now()) : null;
}

/**
 * spec 2 §2 'Claim this account': the e-mail of a profile whose owner never
 * verified it, where requestClaimLink mails the sign-in link. Null for verified,
 * banned or unknown profiles. Never for a response: the address stays on the
 * server (decision 0126).
 */
export async function getClaimEmail(ctx: AppContext, username: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ email: user.email })
    .from(user)
    .where(
      and(
        eq(user.username, username.trim().toLowerCase()),
        eq(user.verified, false),
        eq(user.banned, false),
        isNull(user.deletedAt),
      ),
    )
    .limit(1);
  return row?.email ?? null;
}

export { profilePhotoSizes };

/** The storage keys of every size of a photo we stored, from the URL kept in `img`. */
export function storedPhotoKeys(storage: MediaStorage, img: string | null): string[] {
  const key = img ? storage.keyOf(img) : null;
  const suffix = `-${PROFILE_PHOTO_VARIANTS[1].name}.webp`;
  if (!key?.startsWith("images/profilePics/") || !key.endsWith(suffix)) return [];
  const base = key.slice(0, -suffix.length);
  return PROFILE_PHOTO_VARIANTS.map((variant) => variantKey(base, variant.name));
}

const photoMessages: Record<MediaErrorCode, { code: ProfileError["code"]; message: string }> = {
  "unsupported-type": { code: "unsupported-type", message: PROFILE_MESSAGES.onlyPhotos },
  "too-large": { code: "too-large", message: PROFILE_MESSAGES.photoTooLarge },
  "too-many-pixels": { code: "too-large", message: PROFILE_MESSAGES.photoTooManyPixels },
  unreadable: { code: "unreadable", message: PROFILE_MESSAGES.photoUnreadable },
};

/** spec 1 §4: profile_set_up becomes true once both a photo and a bio exist (never turned back). */
const setUpOnceBioExists = sql`${user.profileSetUp} or coalesce(${user.bio}, '') <> ''`;
const setUpOncePhotoExists = sql`${user.profileSetUp} or ${user.img} is not null`;

export interface PhotoUpdate {
  img: string;
  sizes: StoredVariant[];
  profileSetUp: boolean;
}

/**
 * Replaces the user's profile photo (spec 1 §5 'Profile photo'): jpeg, jpg, png or
 * gif by content, at most 10 MB, re-encoded to WebP in two sizes without metadata,
 * stored under images/profilePics/{userId}/. The old files are removed only after
 * the new address is committed, so the profile never points at a missing file.
 */
export async function updateProfilePhoto(
  ctx: AppContext,
  actor: Actor,
  bytes: Uint8Array,
): Promise<PhotoUpdate> {
  let image: Awaited<ReturnType<typeof processImage>>;
  try {
    image = await processImage(bytes, { allowed: PROFILE_PHOTO_TYPES, variants: PROFILE_PHOTO_VARIANTS });
  } catch (error) {
    if (!isMediaError(error)) throw error;
    const refusal = photoMessages[error.code];
    throw new ProfileError(refusal.code, refusal.message, "photo");
  }

  const [exists] = await ctx.db.select({ id: user.id }).from(user).where(eq(user.id, actor.id)).limit(1);
  if (!exists) throw new ProfileError("user-not-found", PROFILE_MESSAGES.userMissingPhoto);

  const sizes = await storeImage(ctx.storage, `images/profilePics/${actor.id}/${image.hash}`, image);
  const img = sizes.find((size) => size.name === PROFILE_PHOTO_VARIANTS[1].name)?.url;
  if (!img) throw new Error("the large profile photo size was not stored");
  const newKeys = sizes.map((size) => size.key);

  let result: { old: string | null; profileSetUp: boolean } | undefined;
  try {
    result = await ctx.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ img: user.img })
        .from(user)
        .where(eq(user.id, actor.id))
        .for("update")
        .limit(1);
      if (!before) return undefined;
      const [after] = await tx
        .update(user)
        .set({ img, profileSetUp: setUpOnceBioExists, updatedAt: ctx.clock.now() })
        .where(eq(user.id, actor.id))
        .returning({ profileSetUp: user.profileSetUp });
      // Decision 0660: a set-up profile is part of the Member level.
      if (after?.profileSetUp) await recountTrustLevel(tx, ctx, actor.id);
      return after ? { old: before.img, profileSetUp: after.profileSetUp } : undefined;
    });
  } catch (error) {
    await deleteStoredKeys(ctx.storage, newKeys);
    throw error;
  }
  if (!result) {
    await deleteStoredKeys(ctx.storage, newKeys);
    throw new ProfileError("user-not-found", PROFILE_MESSAGES.userMissingPhoto);
  }

  // The same photo uploaded again has the same keys: those stay.
  const stale = storedPhotoKeys(ctx.storage, result.old).filter((key) => !newKeys.includes(key));
  const failed = await deleteStoredKeys(ctx.storage, stale);
  if (failed.length > 0) ctx.log.warn({ keys: failed }, "old profile photo files were not removed");
  return { img, sizes, profileSetUp: result.profileSetUp };
}

export interface ProfileDetails {
  firstName: string;
  lastName: string;
  bio: string | null;
  profileSetUp: boolean;
}

async function writeDetails(
  ctx: AppContext,
  actor: Actor,
  values: { firstName?: string; lastName?: string; bio?: string },
  missingMessage: string,
): Promise<ProfileDetails> {
  const set: PgUpdateSetSource<typeof user> = { updatedAt: ctx.clock.now() };
  if (values.firstName !== undefined && values.lastName !== undefined) {
    set.firstName = values.firstName;
    set.lastName = values.lastName;
    // better-auth's display name, kept as sign-up made it.
    set.name = `${values.firstName} ${values.lastName}`;
  }
  if (values.bio !== undefined) {
    // An emptied bio is no bio.
    set.bio = values.bio === "" ? null : values.bio;
    if (values.bio !== "") set.profileSetUp = setUpOncePhotoExists;
  }
  const [row] = await ctx.db.update(user).set(set).where(eq(user.id, actor.id)).returning({
    firstName: user.firstName,
    lastName: user.lastName,
    bio: user.bio,
    profileSetUp: user.profileSetUp,
  });
  if (!row) throw new ProfileError("user-not-found", missingMessage);
  // Decision 0660: a set-up profile is part of the Member level (one statement, outside any transaction like the write).
  if (row.profileSetUp && set.profileSetUp !== undefined) await recountTrustLevel(ctx.db, ctx, actor.id);
  return row;
}

/** spec 1 §5 'Bio': at most 160 characters; an empty one clears it. */
export async function updateBio(ctx: AppContext, actor: Actor, bio: string): Promise<ProfileDetails> {
  const parsed = parseInput(setUpBioSchema, { bio }, invalidProfileInput);
  return writeDetails(ctx, actor, { bio: parsed.bio }, PROFILE_MESSAGES.userMissingBio);
}

/**
 * A profile write from one form: its input checked against `schema`, then the details it carries
 * written by writeDetails. `missingMessage` is what the form says when the account is gone.
 */
function detailsWriter<Input>(
  schema: z.ZodType<{ firstName?: string; lastName?: string; bio?: string }, Input>,
  missingMessage: string,
) {
  // Async, so a refused input is a rejected promise like any other refusal.
  return async (ctx: AppContext, actor: Actor, input: Input): Promise<ProfileDetails> =>
    writeDetails(ctx, actor, parseInput(schema, input, invalidProfileInput), missingMessage);
}

/** spec 1 §5 'Names': first and last name at most 20 characters, letters, apostrophes and spaces. */
export const updateNames: (
  ctx: AppContext,
  actor: Actor,
  input: ProfileNamesInput,
) => Promise<ProfileDetails> = detailsWriter(profileNamesSchema, PROFILE_MESSAGES.userNotFound);

/** /profile/edit: names and bio in one write ('Profile Updated'). */
export const updateProfileDetails: (
  ctx: AppContext,
  actor: Actor,
  input: EditProfileInput,
) => Promise<ProfileDetails> = detailsWriter(editProfileSchema, PROFILE_MESSAGES.userMissingBio);
