import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as editAction } from "~/app/routes/profile/edit";
import { action as setUpAction } from "~/app/routes/profile/set-up";
import { CampusDirectory } from "~/server/campuses/directory";
import { getProfileById } from "~/server/profiles/profiles";
import { uploadTempRoot } from "~/server/uploads/upload-form";
import { createTestMember, requestHeaders } from "~/tests/support/factories";
import { meteredBody, multipartParts } from "~/tests/support/request-bodies";
import { createTestContext, type TestContext } from "~/tests/support/test-context";
import { MAX_UPLOAD_BODY_BYTES, type ProfileActionData } from "./profile-action.server";

// The profile photo forms (spec 1 §5) read their bodies within the caps, the photo
// streamed to disk and removed after the request (decision 0120).

let t: TestContext;
let campuses: CampusDirectory;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "cbs-profile-"));
  t = await createTestContext({ dataDir });
  campuses = new CampusDirectory(t.ctx.db, {});
  await campuses.refresh();
});

afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

function args<Args>(request: Request): Args {
  const campus = campuses.get("ou");
  if (!campus) throw new Error("campus ou is not seeded");
  return {
    request,
    params: {},
    context: { app: t.ctx, auth: t.auth, campuses, campus, nonce: "", clientIp: null },
  } as unknown as Args;
}

async function run(promise: Promise<unknown>) {
  let result: unknown;
  try {
    result = await promise;
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { response: result } as const;
  const wrapped = result as { data: ProfileActionData; init?: { status?: number } | null };
  return { data: wrapped.data, status: wrapped.init?.status ?? 200 } as const;
}

async function uploadFolders(): Promise<string[]> {
  try {
    return await readdir(uploadTempRoot(dataDir));
  } catch {
    return [];
  }
}

async function photoBytes(): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#cc3366" } })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}

const boundary = "profileBoundary";
const contentType = `multipart/form-data; boundary=${boundary}`;

describe("profile photo actions", () => {
  it("store the uploaded photo and leave no upload file behind", async () => {
    const member = await createTestMember(t);
    const upload = meteredBody(
      multipartParts(boundary, { intent: "upload-photo" }, [
        { name: "photo", filename: "me.png", bytes: await photoBytes(), type: "image/png" },
      ]),
      {
        contentType,
        declare: true,
        url: "http://localhost/profile/set-up",
        headers: requestHeaders({ cookie: member.cookie }),
      },
    );
    const answer = await run(setUpAction(args(upload.request)));
    expect(answer.data).toMatchObject({ intent: "upload-photo", ok: true });
    expect((await getProfileById(t.ctx, member.id))?.img).toBe(answer.data?.img);
    expect(await uploadFolders()).toEqual([]);
  });

  it("answer a photo over the cap with the size message before reading it", async () => {
    const member = await createTestMember(t);
    const upload = meteredBody(
      multipartParts(boundary, { intent: "upload-photo" }, [
        { name: "photo", filename: "me.png", bytes: new Uint8Array(1024) },
      ]),
      {
        contentType,
        declaredLength: MAX_UPLOAD_BODY_BYTES + 1,
        url: "http://localhost/profile/edit",
        headers: requestHeaders({ cookie: member.cookie }),
      },
    );
    const answer = await run(editAction(args(upload.request)));
    expect(answer.status).toBe(413);
    expect(answer.data?.toast).toEqual({ message: "Photos must be 10 MB or smaller.", type: "danger" });
    expect(upload.meter.pulled).toBe(0);
  });

  it("send a signed-out upload to sign in without reading it", async () => {
    const upload = meteredBody(
      multipartParts(boundary, { intent: "upload-photo" }, [
        { name: "photo", filename: "me.png", bytes: new Uint8Array(5 * 1024 * 1024) },
      ]),
      { contentType, declare: true, url: "http://localhost/profile/edit" },
    );
    const answer = await run(editAction(args(upload.request)));
    expect(answer.response?.headers.get("Location")).toBe("/login");
    expect(upload.meter.pulled).toBe(0);
  });
});

describe("profile edit intents (decision 0145)", () => {
  function editRequest(cookie: string, fields: Record<string, string>): Request {
    return new Request("http://localhost/profile/edit", {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: requestHeaders({ cookie }),
    });
  }

  it("save the details for the page's main form, with or without its intent", async () => {
    const member = await createTestMember(t);
    const named = await run(
      editAction(
        args(
          editRequest(member.cookie, {
            intent: "update-profile",
            firstName: "Ada",
            lastName: "B",
            bio: "Hi",
          }),
        ),
      ),
    );
    expect(named.response?.status ?? named).toBe(302);
    expect((await getProfileById(t.ctx, member.id))?.firstName).toBe("Ada");
    const unnamed = await run(
      editAction(args(editRequest(member.cookie, { firstName: "Grace", lastName: "H", bio: "Hi" }))),
    );
    expect(unnamed.response?.status ?? unnamed).toBe(302);
    expect((await getProfileById(t.ctx, member.id))?.firstName).toBe("Grace");
  });

  it("refuse an intent the page has no form for with a 400, changing nothing", async () => {
    const member = await createTestMember(t);
    const before = await getProfileById(t.ctx, member.id);
    const answer = await run(
      editAction(
        args(
          editRequest(member.cookie, {
            intent: "delete-account",
            firstName: "Eve",
            lastName: "X",
            bio: "Hi",
          }),
        ),
      ),
    );
    expect(answer.status).toBe(400);
    expect((await getProfileById(t.ctx, member.id))?.firstName).toBe(before?.firstName);
  });
});
