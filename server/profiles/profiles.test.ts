import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, uniqueEmail } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { user } from "../db/schema";
import { isProfileError, type ProfileError } from "./errors";
import {
  getClaimEmail,
  getProfileById,
  getProfileByUsername,
  profilePhotoSizes,
  updateBio,
  updateNames,
  updateProfileDetails,
  updateProfilePhoto,
} from "./profiles";
import { PROFILE_MESSAGES } from "./schemas.shared";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function png(width = 640, height = 480, red = 180): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: red, g: 60, b: 90 } } })
    .png()
    .toBuffer();
}

async function refusal(promise: Promise<unknown>): Promise<ProfileError> {
  try {
    await promise;
  } catch (error) {
    if (isProfileError(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

async function row(userId: string) {
  const [found] = await t.ctx.db.select().from(user).where(eq(user.id, userId));
  if (!found) throw new Error("no such user");
  return found;
}

function storedKeys(): string[] {
  return [...t.storage.objects.keys()].sort();
}

describe("updateProfilePhoto", () => {
  it("stores two WebP sizes under images/profilePics/{userId} and points img at the large one", async () => {
    const student = await createTestUser(t);
    const result = await updateProfilePhoto(t.ctx, student, await png());
    expect(result.img).toMatch(
      new RegExp(`^/media-files/images/profilePics/${student.id}/[0-9a-f]{20}-480\\.webp$`),
    );
    expect(result.sizes.map((size) => [size.width, size.height])).toEqual([
      [160, 160],
      [480, 480],
    ]);
    expect((await row(student.id)).img).toBe(result.img);
    const keys = result.sizes.map((size) => size.key);
    for (const key of keys) {
      expect(key.startsWith(`images/profilePics/${student.id}/`)).toBe(true);
      const stored = t.storage.objects.get(key);
      expect(stored?.contentType).toBe("image/webp");
      expect((await sharp(stored?.bytes).metadata()).format).toBe("webp");
    }
    expect(profilePhotoSizes(result.img)).toEqual({ small: t.storage.url(keys[0] ?? ""), large: result.img });
  });

  it("strips EXIF, GPS position included, from a phone photo", async () => {
    const student = await createTestUser(t);
    const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3a6" } })
      .jpeg()
      .withExif({
        IFD0: { Make: "PhoneCo", Artist: "Jamie at home" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "35/1 12/1 30/1",
          GPSLongitudeRef: "W",
          GPSLongitude: "97/1 26/1 40/1",
        },
      })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const result = await updateProfilePhoto(t.ctx, student, jpeg);
    for (const size of result.sizes) {
      const meta = await sharp(t.storage.objects.get(size.key)?.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
    }
  });

  it("refuses a text file renamed .png with 'Only photos are allowed!' and changes nothing", async () => {
    const student = await createTestUser(t);
    const before = storedKeys();
    const error = await refusal(
      updateProfilePhoto(
        t.ctx,
        student,
        Buffer.from("This is not a picture. It is a text file called me.png\n"),
      ),
    );
    expect(error.message).toBe("Only photos are allowed!");
    expect(error.code).toBe("unsupported-type");
    expect((await row(student.id)).img).toBeNull();
    expect(storedKeys()).toEqual(before);
  });

  it("refuses WebP (profile photos are jpeg, jpg, png, gif only) and files over 10 MB", async () => {
    const student = await createTestUser(t);
    const webp = await sharp(await png(40, 40))
      .webp()
      .toBuffer();
    expect((await refusal(updateProfilePhoto(t.ctx, student, webp))).message).toBe(
      "Only photos are allowed!",
    );
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(await png(40, 40));
    expect((await refusal(updateProfilePhoto(t.ctx, student, big))).message).toBe(
      "Photos must be 10 MB or smaller.",
    );
  });

  it("replaces the old files after the new photo is saved; the same photo again keeps its files", async () => {
    const student = await createTestUser(t);
    const first = await updateProfilePhoto(t.ctx, student, await png(300, 300, 10));
    const second = await updateProfilePhoto(t.ctx, student, await png(300, 300, 250));
    expect(second.img).not.toBe(first.img);
    for (const size of first.sizes) expect(t.storage.objects.has(size.key)).toBe(false);
    for (const size of second.sizes) expect(t.storage.objects.has(size.key)).toBe(true);

    const again = await updateProfilePhoto(t.ctx, student, await png(300, 300, 250));
    expect(again.img).toBe(second.img);
    for (const size of again.sizes) expect(t.storage.objects.has(size.key)).toBe(true);
  });

  it("answers the spec's message when the user record is missing, and keeps no files", async () => {
    const before = storedKeys();
    const error = await refusal(updateProfilePhoto(t.ctx, { id: "no-such-user" }, await png()));
    expect(error.message).toBe("User doesn't exist. Could't change profile photo");
    expect(storedKeys()).toEqual(before);
  });
});

describe("profile_set_up (spec 1 §4)", () => {
  it("becomes true when the bio is added while a photo exists", async () => {
    const student = await createTestUser(t);
    await updateProfilePhoto(t.ctx, student, await png());
    expect((await row(student.id)).profileSetUp).toBe(false);
    const result = await updateBio(t.ctx, student, "Selling my old textbooks.");
    expect(result.profileSetUp).toBe(true);
    expect((await row(student.id)).profileSetUp).toBe(true);
  });

  it("becomes true when the photo is added while a bio exists", async () => {
    const student = await createTestUser(t);
    const withBio = await updateBio(t.ctx, student, "Junior, biology.");
    expect(withBio.profileSetUp).toBe(false);
    const result = await updateProfilePhoto(t.ctx, student, await png());
    expect(result.profileSetUp).toBe(true);
  });

  it("stays false with only one of them, and an empty bio does not count", async () => {
    const student = await createTestUser(t);
    await updateBio(t.ctx, student, "   ");
    expect((await row(student.id)).bio).toBeNull();
    await updateProfilePhoto(t.ctx, student, await png());
    expect((await row(student.id)).profileSetUp).toBe(false);
  });
});

describe("updateBio", () => {
  it("keeps at most 160 characters, counting a line break as one", async () => {
    const student = await createTestUser(t);
    const bio = `${"a".repeat(79)}\r\n${"b".repeat(80)}`;
    const saved = await updateBio(t.ctx, student, bio);
    expect(saved.bio).toBe(`${"a".repeat(79)}\n${"b".repeat(80)}`);
    expect(saved.bio?.length).toBe(160);

    const error = await refusal(updateBio(t.ctx, student, "x".repeat(161)));
    expect(error.message).toBe(PROFILE_MESSAGES.bioTooLong);
    expect(error.field).toBe("bio");
    expect((await row(student.id)).bio).toBe(saved.bio);
  });

  it("answers \"User doesn't exist. Could't edit bio\" when the user record is missing", async () => {
    const error = await refusal(updateBio(t.ctx, { id: "no-such-user" }, "hello"));
    expect(error.message).toBe("User doesn't exist. Could't edit bio");
  });
});

describe("updateNames", () => {
  it("capitalises the first name and keeps the last name's initial and a period", async () => {
    const student = await createTestUser(t, { fullName: "Pat Lee" });
    const saved = await updateNames(t.ctx, student, { firstName: "  mary   ann ", lastName: "o'brien" });
    expect(saved).toMatchObject({ firstName: "Mary Ann", lastName: "O." });
    const stored = await row(student.id);
    expect([stored.firstName, stored.lastName, stored.name]).toEqual(["Mary Ann", "O.", "Mary Ann O."]);
  });

  it("accepts the stored form of the last name sent back unchanged", async () => {
    const student = await createTestUser(t, { fullName: "Pat Lee" });
    expect(await updateNames(t.ctx, student, { firstName: "Pat", lastName: "L." })).toMatchObject({
      firstName: "Pat",
      lastName: "L.",
    });
  });

  it("applies the name rules of spec 1 §5", async () => {
    const student = await createTestUser(t, { fullName: "Pat Lee" });
    const cases: [string, string, string, string][] = [
      ["", "Lee", "Full name is required", "firstName"],
      ["Pat", "", "Full name is required", "lastName"],
      ["P", "Lee", "Name is Invalid", "firstName"],
      ["Pat3", "Lee", "Your Name is Invalid.", "firstName"],
      ["Pat", "Lee-Smith", "Your Name is Invalid.", "lastName"],
      ["A".repeat(21), "Lee", "First and last name must be 20 characters or fewer.", "firstName"],
      ["Pat", "B".repeat(21), "First and last name must be 20 characters or fewer.", "lastName"],
    ];
    for (const [firstName, lastName, message, field] of cases) {
      const error = await refusal(updateNames(t.ctx, student, { firstName, lastName }));
      expect([error.message, error.field]).toEqual([message, field]);
    }
    expect(await row(student.id)).toMatchObject({ firstName: "Pat", lastName: "L." });
  });
});

describe("updateProfileDetails", () => {
  it("saves names and bio together, or nothing when one is wrong", async () => {
    const student = await createTestUser(t, { fullName: "Sam Cruz" });
    await updateProfileDetails(t.ctx, student, { firstName: "Samuel", lastName: "Cruz", bio: "Hi!" });
    expect(await row(student.id)).toMatchObject({ firstName: "Samuel", lastName: "C.", bio: "Hi!" });

    const error = await refusal(
      updateProfileDetails(t.ctx, student, { firstName: "Sammy", lastName: "C.", bio: "y".repeat(200) }),
    );
    expect(error.field).toBe("bio");
    expect(await row(student.id)).toMatchObject({ firstName: "Samuel", bio: "Hi!" });
  });
});

describe("reading profiles", () => {
  it("finds a profile by username in any case, with public fields only", async () => {
    const student = await createTestUser(t, { fullName: "Robin Park" });
    await t.ctx.db
      .update(user)
      .set({
        phone: "405-555-0134",
        gender: "female",
        birthDate: { month: 1, day: 2, year: 2003 },
        totalPosts: 7,
      })
      .where(eq(user.id, student.id));
    const { username } = await row(student.id);
    const profile = await getProfileByUsername(t.ctx, username.toUpperCase());
    expect(profile).toMatchObject({ id: student.id, firstName: "Robin", lastName: "P.", totalPosts: 7 });
    const fields = Object.keys(profile ?? {});
    for (const hidden of ["email", "phone", "gender", "birthDate", "schoolEmail", "banned"]) {
      expect(fields).not.toContain(hidden);
    }
    expect(JSON.stringify(profile)).not.toContain(student.email);
    expect(await getProfileByUsername(t.ctx, "nobody-by-this-name")).toBeNull();
  });

  it("hides banned accounts", async () => {
    const student = await createTestUser(t, { banned: true });
    const { username } = await row(student.id);
    expect(await getProfileByUsername(t.ctx, username)).toBeNull();
    expect(await getProfileById(t.ctx, student.id)).toBeNull();
  });

  it("gives the e-mail for 'Claim this account' only while the account is unverified", async () => {
    const email = uniqueEmail("claim");
    const unverified = await createTestUser(t, { email });
    const verified = await createTestUser(t, { verified: true });
    expect(await getClaimEmail(t.ctx, (await row(unverified.id)).username)).toBe(email);
    expect(await getClaimEmail(t.ctx, (await row(verified.id)).username)).toBeNull();
  });
});
