import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestUser, lastCodeMailedTo, uniqueEmail } from "../../tests/support/factories";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { type Campus, getCampus, isSchoolEmailDomain } from "../campuses/campuses";
import { mailOutbox, posts, user, verificationCodes } from "../db/schema";
import * as newUserPost from "../posts/new-user-post";
import { MAX_CODE_ATTEMPTS } from "./codes";
import {
  resolveSchoolCampus,
  schoolEmailSchemaFor,
  sendSchoolEmailCode,
  verifySchoolEmailCode,
} from "./school";
import { getViewerById, type Viewer } from "./viewer";

vi.mock("../posts/new-user-post", { spy: true });

let t: TestContext;
let ou: Campus;
let ut: Campus;
let generic: Campus;
beforeAll(async () => {
  t = await createTestContext();
  const found = await Promise.all(["ou", "ut", "www"].map((id) => getCampus(t.ctx.db, id)));
  if (!found[0] || !found[1] || !found[2]) throw new Error("campuses not seeded");
  [ou, ut, generic] = found as [Campus, Campus, Campus];
});
afterAll(() => t.close());

let sequence = 0;
/** A school address nobody has used yet in this file. */
function schoolAddress(domain = "ou.edu"): string {
  sequence++;
  return `student${sequence}x${process.pid}@${domain}`;
}

async function verifiedStudent(): Promise<Viewer> {
  const created = await createTestUser(t, { verified: true, email: uniqueEmail("school") });
  const viewer = await getViewerById(t.ctx, created.id);
  if (!viewer) throw new Error("no viewer");
  return viewer;
}

async function userRow(id: string) {
  const [row] = await t.ctx.db.select().from(user).where(eq(user.id, id));
  if (!row) throw new Error("no user");
  return row;
}

async function newUserPosts(authorId: string) {
  return t.ctx.db
    .select()
    .from(posts)
    .where(and(eq(posts.authorId, authorId), eq(posts.type, "new user")));
}

function wrongCode(code: string): string {
  return code === "1234" ? "4321" : "1234";
}

describe("which campus a school e-mail is for (spec 1 §5)", () => {
  const lookup = (id: string) => ({ ou, ut, www: generic })[id] ?? null;

  it("is the host's campus on a campus site, whatever the query says", () => {
    expect(resolveSchoolCampus(ou, null, lookup)?.id).toBe("ou");
    expect(resolveSchoolCampus(ou, "ut", lookup)?.id).toBe("ou");
  });

  it("is the campus of the query on the generic instance", () => {
    expect(resolveSchoolCampus(generic, "ut", lookup)?.id).toBe("ut");
  });

  it("is none without a usable campus: no query, an unknown id, the generic campus itself", () => {
    expect(resolveSchoolCampus(generic, null, lookup)).toBeNull();
    expect(resolveSchoolCampus(generic, "nowhere", lookup)).toBeNull();
    expect(resolveSchoolCampus(generic, "www", lookup)).toBeNull();
    expect(resolveSchoolCampus({ ...ou, domains: [] }, null, lookup)).toBeNull();
  });
});

describe("the school e-mail rule (spec 1 §5, docs/contract.md)", () => {
  const check = (email: string, campus: Campus = ut, current: string | null = null) => {
    const parsed = schoolEmailSchemaFor(campus, current).safeParse({ email });
    return parsed.success ? "ok" : parsed.error.issues[0]?.message;
  };

  it.each([
    ["abc123@utexas.edu", "ok"],
    ["ABC123@UTEXAS.EDU", "ok"],
    ["jane.doe@utexas.edu", "ok"],
    ["jane_doe-2@utdallas.edu", "ok"],
    // Subdomains of an allowed domain count.
    ["abc@mail.utexas.edu", "ok"],
    ["abc@cs.mail.utexas.edu", "ok"],
    // Not the campus's domains: look-alikes, other schools, a domain merely ending the same way.
    ["abc@notutexas.edu", "Enter a valid school email"],
    ["abc@utexas.edu.evil.com", "Enter a valid school email"],
    ["abc@ou.edu", "Enter a valid school email"],
    ["abc@gmail.com", "Enter a valid school email"],
    // Letters and digits before the @ (no aliases, no leading or doubled separators).
    ["abc+1@utexas.edu", "Enter a valid school email"],
    [".abc@utexas.edu", "Enter a valid school email"],
    ["a..b@utexas.edu", "Enter a valid school email"],
    ["@utexas.edu", "Enter a valid school email"],
    ["abc", "Enter a valid school email"],
    ["", "Enter a valid school email"],
  ])("%s → %s", (email, expected) => {
    expect(check(email)).toBe(expected);
  });

  it("agrees with isSchoolEmailDomain on the domain part", () => {
    for (const email of ["a@utexas.edu", "a@x.utexas.edu", "a@utexas.edu.com", "a@xutexas.edu"]) {
      expect(check(email) === "ok").toBe(isSchoolEmailDomain(email, ut.domains));
    }
  });

  it("asks for a new address when it is the current one, in any case", () => {
    expect(check("Abc@utexas.edu", ut, "abc@utexas.edu")).toBe("Enter a new school email");
    expect(check("other@utexas.edu", ut, "abc@utexas.edu")).toBe("ok");
  });
});

describe("Send PIN (spec 1 §2 school_email)", () => {
  it("mails a 4-digit code to the school address, for that campus", async () => {
    const viewer = await verifiedStudent();
    const email = schoolAddress("utexas.edu");
    const wakes = t.wakes.count;
    const sent = await sendSchoolEmailCode(t.ctx, viewer, { email: email.toUpperCase() }, ut);
    expect(sent).toMatchObject({ email, campusId: "ut" });
    const code = await lastCodeMailedTo(t, email);
    expect(code).toMatch(/^\d{4}$/);
    const [row] = await t.ctx.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.userId, viewer.id), eq(verificationCodes.purpose, "school_email")));
    expect(row).toMatchObject({ target: email, campusId: "ut" });
    expect(t.wakes.count).toBeGreaterThan(wakes);
    // Nothing is verified yet.
    expect(await userRow(viewer.id)).toMatchObject({ schoolVerified: false, schoolEmail: null });
  });

  it("says 'Something went wrong' when the campus has no domain list, and mails nothing", async () => {
    const viewer = await verifiedStudent();
    const email = schoolAddress();
    for (const campus of [null, generic, { ...ou, domains: [] }]) {
      await expect(sendSchoolEmailCode(t.ctx, viewer, { email }, campus)).rejects.toMatchObject({
        message: "Something went wrong",
      });
    }
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).toHaveLength(0);
  });

  it("refuses an address of another campus with 'Enter a valid school email'", async () => {
    const viewer = await verifiedStudent();
    await expect(
      sendSchoolEmailCode(t.ctx, viewer, { email: schoolAddress("utexas.edu") }, ou),
    ).rejects.toMatchObject({ message: "Enter a valid school email", field: "email" });
  });

  it("refuses before the e-mail is verified", async () => {
    const created = await createTestUser(t);
    const viewer = await getViewerById(t.ctx, created.id);
    if (!viewer) throw new Error("no viewer");
    await expect(sendSchoolEmailCode(t.ctx, viewer, { email: schoolAddress() }, ou)).rejects.toMatchObject({
      code: "email-unverified",
    });
  });

  it("caps code mails like every code: 3 an hour per address", async () => {
    const viewer = await verifiedStudent();
    const email = schoolAddress();
    for (let i = 0; i < 3; i++) {
      await sendSchoolEmailCode(t.ctx, viewer, { email }, ou);
      t.clock.advance(1000);
    }
    await expect(sendSchoolEmailCode(t.ctx, viewer, { email }, ou)).rejects.toMatchObject({
      code: "too-many-mails",
      message: "Too many codes requested. Try again in an hour.",
    });
    t.clock.advance(60 * 60_000);
    await sendSchoolEmailCode(t.ctx, viewer, { email }, ou);
  });
});

describe("Enter PIN (spec 1 §4 'School verification')", () => {
  it("verifies in one go: school_verified, school_email, campus, redirect_to and a 'new user' post", async () => {
    const viewer = await verifiedStudent();
    const email = schoolAddress("utexas.edu");
    await sendSchoolEmailCode(t.ctx, viewer, { email }, ut);
    const code = await lastCodeMailedTo(t, email);

    const result = await verifySchoolEmailCode(t.ctx, viewer, { code }, { genericInstance: false });
    expect(result).toEqual({ campus: { id: "ut", name: "UT" }, joined: true, next: "/home" });
    expect(await userRow(viewer.id)).toMatchObject({
      schoolVerified: true,
      schoolEmail: email,
      campusId: "ut",
      redirectTo: "ut",
    });
    const announced = await newUserPosts(viewer.id);
    expect(announced).toHaveLength(1);
    expect(announced[0]).toMatchObject({ campusId: "ut", text: null, textPlain: "", parentId: null });
    // The code is used up.
    await expect(
      verifySchoolEmailCode(t.ctx, viewer, { code }, { genericInstance: false }),
    ).rejects.toMatchObject({ message: "Your code was incorrect. Please try again." });
    // A 'new user' post is not one the user wrote.
    expect((await userRow(viewer.id)).totalPosts).toBe(0);
  });

  it("on the generic instance goes on to /search_schools and stores no redirect_to", async () => {
    const viewer = await verifiedStudent();
    const email = schoolAddress("utexas.edu");
    const campus = resolveSchoolCampus(generic, "ut", (id) => (id === "ut" ? ut : null));
    await sendSchoolEmailCode(t.ctx, viewer, { email }, campus);
    const result = await verifySchoolEmailCode(
      t.ctx,
      viewer,
      { code: await lastCodeMailedTo(t, email) },
      { genericInstance: true },
    );
    expect(result.next).toBe("/search_schools");
    expect(await userRow(viewer.id)).toMatchObject({
      schoolVerified: true,
      campusId: "ut",
      redirectTo: null,
    });
    expect(await newUserPosts(viewer.id)).toHaveLength(1);
  });

  it("refuses a wrong code with the spec's message and changes nothing; 5 wrong tries kill it", async () => {
    const viewer = await verifiedStudent();
    const email = schoolAddress();
    await sendSchoolEmailCode(t.ctx, viewer, { email }, ou);
    const code = await lastCodeMailedTo(t, email);
    for (let attempt = 1; attempt < MAX_CODE_ATTEMPTS; attempt++) {
      await expect(
        verifySchoolEmailCode(t.ctx, viewer, { code: wrongCode(code) }, { genericInstance: false }),
      ).rejects.toMatchObject({ message: "Your code was incorrect. Please try again.", field: "code" });
    }
    await expect(
      verifySchoolEmailCode(t.ctx, viewer, { code: wrongCode(code) }, { genericInstance: false }),
    ).rejects.toMatchObject({ code: "code-dead" });
    await expect(
      verifySchoolEmailCode(t.ctx, viewer, { code }, { genericInstance: false }),
    ).rejects.toMatchObject({ code: "code-dead" });
    expect(await userRow(viewer.id)).toMatchObject({ schoolVerified: false, schoolEmail: null });
    expect(await newUserPosts(viewer.id)).toHaveLength(0);
  });

  it("writes all or nothing: if the announcement fails, the user is not verified and the code still works", async () => {
    const viewer = await verifiedStudent();
    const email = schoolAddress();
    await sendSchoolEmailCode(t.ctx, viewer, { email }, ou);
    const code = await lastCodeMailedTo(t, email);

    vi.mocked(newUserPost.insertNewUserPost).mockRejectedValueOnce(new Error("disk full"));
    await expect(verifySchoolEmailCode(t.ctx, viewer, { code }, { genericInstance: false })).rejects.toThrow(
      "disk full",
    );
    expect(await userRow(viewer.id)).toMatchObject({
      schoolVerified: false,
      schoolEmail: null,
      campusId: "ou",
      redirectTo: null,
    });
    expect(await newUserPosts(viewer.id)).toHaveLength(0);

    await verifySchoolEmailCode(t.ctx, viewer, { code }, { genericInstance: false });
    expect(await userRow(viewer.id)).toMatchObject({ schoolVerified: true, schoolEmail: email });
    expect(await newUserPosts(viewer.id)).toHaveLength(1);
  });

  it("keeps one school e-mail per account: Send PIN refuses a taken one", async () => {
    const first = await verifiedStudent();
    const email = schoolAddress();
    await sendSchoolEmailCode(t.ctx, first, { email }, ou);
    await verifySchoolEmailCode(
      t.ctx,
      first,
      { code: await lastCodeMailedTo(t, email) },
      { genericInstance: false },
    );

    const second = await verifiedStudent();
    await expect(
      sendSchoolEmailCode(t.ctx, second, { email: email.toUpperCase() }, ou),
    ).rejects.toMatchObject({
      code: "school-email-taken",
      message: "That school email is already used by another account.",
      field: "email",
    });
  });

  it("keeps one school e-mail per account when two prove the same address: the second is refused whole", async () => {
    const first = await verifiedStudent();
    const second = await verifiedStudent();
    const email = schoolAddress();
    await sendSchoolEmailCode(t.ctx, first, { email }, ou);
    const firstCode = await lastCodeMailedTo(t, email);
    t.clock.advance(1000);
    await sendSchoolEmailCode(t.ctx, second, { email }, ou);
    const secondCode = await lastCodeMailedTo(t, email);

    await verifySchoolEmailCode(t.ctx, first, { code: firstCode }, { genericInstance: false });
    await expect(
      verifySchoolEmailCode(t.ctx, second, { code: secondCode }, { genericInstance: false }),
    ).rejects.toMatchObject({ code: "school-email-taken" });
    expect(await userRow(second.id)).toMatchObject({ schoolVerified: false, schoolEmail: null });
    expect(await newUserPosts(second.id)).toHaveLength(0);
  });

  it("changing the school e-mail on the same campus announces nothing new; moving campus does", async () => {
    const viewer = await verifiedStudent();
    const first = schoolAddress();
    await sendSchoolEmailCode(t.ctx, viewer, { email: first }, ou);
    await verifySchoolEmailCode(
      t.ctx,
      viewer,
      { code: await lastCodeMailedTo(t, first) },
      { genericInstance: false },
    );
    const verified = await getViewerById(t.ctx, viewer.id);
    if (!verified) throw new Error("no viewer");

    // Same address again: 'Enter a new school email'.
    await expect(sendSchoolEmailCode(t.ctx, verified, { email: first }, ou)).rejects.toMatchObject({
      message: "Enter a new school email",
    });

    const second = schoolAddress();
    await sendSchoolEmailCode(t.ctx, verified, { email: second }, ou);
    const changed = await verifySchoolEmailCode(
      t.ctx,
      verified,
      { code: await lastCodeMailedTo(t, second) },
      { genericInstance: false },
    );
    expect(changed.joined).toBe(false);
    expect(await userRow(viewer.id)).toMatchObject({ schoolEmail: second, campusId: "ou" });
    expect(await newUserPosts(viewer.id)).toHaveLength(1);

    const third = schoolAddress("utexas.edu");
    await sendSchoolEmailCode(t.ctx, verified, { email: third }, ut);
    const moved = await verifySchoolEmailCode(
      t.ctx,
      verified,
      { code: await lastCodeMailedTo(t, third) },
      { genericInstance: false },
    );
    expect(moved.joined).toBe(true);
    expect(await userRow(viewer.id)).toMatchObject({ schoolEmail: third, campusId: "ut", redirectTo: "ut" });
    expect((await newUserPosts(viewer.id)).map((post) => post.campusId).sort()).toEqual(["ou", "ut"]);
  });
});
