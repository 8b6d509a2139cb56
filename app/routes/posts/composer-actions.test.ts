import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as createCommentAction } from "~/app/routes/posts/create-comment";
import { action as createPostAction } from "~/app/routes/posts/create-post";
import { CampusDirectory } from "~/server/campuses/directory";
import { posts } from "~/server/db/schema";
import { getPost } from "~/server/posts/posts";
import { plainTextToRichText } from "~/server/posts/rich-text.shared";
import { uploadTempRoot } from "~/server/uploads/upload-form";
import { createTestMember, createTestPost, mp4File, requestHeaders } from "~/tests/support/factories";
import { meteredBody, multipartParts } from "~/tests/support/request-bodies";
import { createTestContext, type TestContext } from "~/tests/support/test-context";
import { type ComposerActionData, MAX_COMPOSER_BODY_BYTES } from "./composer-action.server";

// The composer's routes (spec 2 §4, §5): thin actions over createPost / createComment that
// answer the composer's script with data and a plain form with redirects.

let t: TestContext;
let campuses: CampusDirectory;
let dataDir: string;

beforeAll(async () => {
  // A DATA_DIR of this file's own, so the upload folders seen are this file's.
  dataDir = await mkdtemp(path.join(tmpdir(), "cbs-composer-"));
  t = await createTestContext({ dataDir });
  campuses = new CampusDirectory(t.ctx.db, {});
  await campuses.refresh();
});

afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

function composerRequest(path: string, form: FormData, cookie: string | null): Request {
  const headers = requestHeaders(cookie ? { cookie } : {});
  return new Request(`http://localhost${path}`, { method: "POST", body: form, headers });
}

/** Route action arguments as the server builds them (server/http/load-context.ts). */
function args<Args>(request: Request, params: Record<string, string> = {}): Args {
  const campus = campuses.get("ou");
  if (!campus) throw new Error("campus ou is not seeded");
  return {
    request,
    params,
    context: { app: t.ctx, auth: t.auth, campuses, campus, nonce: "", clientIp: null },
  } as unknown as Args;
}

/** What an action answered: data() with its status, or a Response (redirect). */
async function run(promise: Promise<unknown>) {
  let result: unknown;
  try {
    result = await promise;
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { response: result } as const;
  const wrapped = result as { data: ComposerActionData; init?: ResponseInit | null };
  const headers = new Headers(wrapped.init?.headers);
  return { data: wrapped.data, status: wrapped.init?.status ?? 200, headers } as const;
}

function editorJson(text: string): string {
  return JSON.stringify(plainTextToRichText(text));
}

async function png(): Promise<File> {
  const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "desk.png", { type: "image/png" });
}

describe("/create/post action", () => {
  it("creates the post from the composer's form and answers { ok, postId }", async () => {
    const member = await createTestMember(t);
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("Desk lamp\nBarely used"));
    form.set("category", "furniture");
    form.append("files", await png());
    form.append("files", await png());
    const answer = await run(
      createPostAction(args(composerRequest("/create/post?goBack=home", form, member.cookie))),
    );
    expect(answer.data).toEqual({ ok: true, postId: expect.any(String), rootId: null });
    if (!answer.data?.ok) throw new Error("not posted");
    const post = await getPost(t.ctx, member.viewer, { postId: answer.data.postId, campusId: "ou" });
    expect(post?.plainText).toBe("Desk lamp\nBarely used");
    expect(post?.category).toBe("furniture");
    expect(post?.media).toHaveLength(2);
  });

  it("takes a plain form's text and redirects it to the feed with 'Your post was sent'", async () => {
    const member = await createTestMember(t);
    const form = new FormData();
    form.set("plainText", "Bike for sale\r\nBlue");
    form.set("category", "all");
    // An empty file input still sends one empty part.
    form.append("files", new File([], "", { type: "application/octet-stream" }));
    const answer = await run(
      createPostAction(args(composerRequest("/create/post?goBack=home", form, member.cookie))),
    );
    expect(answer.response?.status).toBe(302);
    expect(answer.response?.headers.get("Location")).toBe("/home?filter=notify-posted");
  });

  it("refuses more than 500 characters with the danger alert", async () => {
    const member = await createTestMember(t);
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("x".repeat(501)));
    const answer = await run(createPostAction(args(composerRequest("/create/post", form, member.cookie))));
    expect(answer.status).toBe(400);
    expect(answer.data).toEqual({
      ok: false,
      toast: { message: "Error: Too many characters!", type: "danger" },
    });
  });

  it("refuses the probe's 94,000-character text as too long, posting nothing (decision 0115)", async () => {
    const member = await createTestMember(t);
    const runs = Array.from({ length: 496 }, () => ({ type: "text", text: "a", format: 255 }));
    const empties = Array.from({ length: 2000 }, () => ({ type: "text", text: "", format: 0 }));
    const children = [runs, empties.slice(0, 1000), empties.slice(1000)].map((nodes) => ({
      type: "paragraph",
      children: nodes,
    }));
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", JSON.stringify({ root: { type: "root", children } }));
    const answer = await run(createPostAction(args(composerRequest("/create/post", form, member.cookie))));
    expect(answer.status).toBe(400);
    expect(answer.data).toEqual({
      ok: false,
      toast: { message: "Error: Too many characters!", type: "danger" },
    });
    const [written] = await t.ctx.db.select({ n: count() }).from(posts).where(eq(posts.authorId, member.id));
    expect(written?.n).toBe(0);
  });

  it("answers past the posting limit with 429, the wait in the toast and Retry-After (decision 0116)", async () => {
    const member = await createTestMember(t);
    const limits = t.ctx.config.postLimits;
    t.ctx.config.postLimits = { perMinute: 1, perDay: 0 };
    try {
      const post = await createTestPost(t, member.viewer);
      const filesBefore = t.storage.objects.size;
      const form = new FormData();
      form.set("enhanced", "1");
      form.set("text", editorJson("One more"));
      form.append("files", await png());
      const toast = { message: "You're posting too fast. Please try again in 1 minute.", type: "danger" };
      const answer = await run(createPostAction(args(composerRequest("/create/post", form, member.cookie))));
      expect(answer).toMatchObject({ status: 429, data: { ok: false, toast } });
      expect(answer.headers?.get("Retry-After")).toBe("60");
      const reply = await run(
        createCommentAction(
          args(composerRequest(`/create/comment/${post.id}`, form, member.cookie), { postId: post.id }),
        ),
      );
      expect(reply).toMatchObject({ status: 429, data: { ok: false, toast } });
      expect(t.storage.objects.size).toBe(filesBefore);
    } finally {
      t.ctx.config.postLimits = limits;
    }
  });

  it("answers a renamed text file with 'Only photos & videos are allowed!'", async () => {
    const member = await createTestMember(t);
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("A photo"));
    form.append("files", new File(["not a photo"], "photo.png", { type: "image/png" }));
    const answer = await run(createPostAction(args(composerRequest("/create/post", form, member.cookie))));
    expect(answer.data).toEqual({
      ok: false,
      toast: { message: "Only photos & videos are allowed!", type: "danger" },
    });
  });

  it("asks a member without a finished profile to set it up: the modal, or the wizard page without JavaScript", async () => {
    const member = await createTestMember(t, { profileSetUp: false });
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("Hello"));
    const answer = await run(createPostAction(args(composerRequest("/create/post", form, member.cookie))));
    expect(answer.status).toBe(403);
    expect(answer.data).toEqual({ ok: false, refusal: { kind: "profile-incomplete" } });

    const plain = new FormData();
    plain.set("plainText", "Hello");
    const page = await run(
      createPostAction(args(composerRequest("/create/post?goBack=profile", plain, member.cookie))),
    );
    expect(page.response?.headers.get("Location")).toBe("/profile/set-up?goBack=create_profile");
  });

  it("answers a signed-out request with the sign-in modal, reason 'post'", async () => {
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("Hello"));
    const answer = await run(createPostAction(args(composerRequest("/create/post", form, null))));
    expect(answer.status).toBe(401);
    expect(answer.data).toEqual({ ok: false, refusal: { kind: "sign-in", reason: "post" } });
  });
});

describe("/create/comment/:postId action", () => {
  it("replies and answers the new comment with its thread's post; a plain form goes to the thread", async () => {
    const author = await createTestMember(t);
    const commenter = await createTestMember(t);
    const post = await createTestPost(t, author.viewer, { text: "Textbooks" });
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("Still available?"));
    const answer = await run(
      createCommentAction(
        args(composerRequest(`/create/comment/${post.id}`, form, commenter.cookie), { postId: post.id }),
      ),
    );
    expect(answer.data).toEqual({ ok: true, postId: expect.any(String), rootId: post.id });
    if (!answer.data?.ok) throw new Error("not sent");

    const reply = new FormData();
    reply.set("plainText", "Yes it is");
    const page = await run(
      createCommentAction(
        args(composerRequest(`/create/comment/${answer.data.postId}`, reply, author.cookie), {
          postId: answer.data.postId,
        }),
      ),
    );
    expect(page.response?.headers.get("Location")).toBe(`/post/${post.id}`);
    expect(page.response?.headers.get("Set-Cookie")).toContain("cbs_toast=");
  });

  it("prompts a member whose school is not verified", async () => {
    const author = await createTestMember(t);
    const newcomer = await createTestMember(t, { schoolVerified: false, profileSetUp: false });
    const post = await createTestPost(t, author.viewer);
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("Interested"));
    const answer = await run(
      createCommentAction(
        args(composerRequest(`/create/comment/${post.id}`, form, newcomer.cookie), { postId: post.id }),
      ),
    );
    expect(answer.data).toEqual({ ok: false, refusal: { kind: "verify-school" } });
  });

  it("says 'Sorry, that post has been deleted.' for a post that is gone", async () => {
    const member = await createTestMember(t);
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("Hello?"));
    const missing = "00000000-0000-4000-8000-000000000000";
    const answer = await run(
      createCommentAction(
        args(composerRequest(`/create/comment/${missing}`, form, member.cookie), { postId: missing }),
      ),
    );
    expect(answer.status).toBe(404);
    expect(answer.data).toEqual({
      ok: false,
      toast: { message: "Sorry, that post has been deleted.", type: "danger" },
    });
  });
});

describe("composer uploads (decision 0120: bodies capped, read after the gate, files on disk)", () => {
  const boundary = "----composerBoundary";
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const MB = 1024 * 1024;

  /** What is left in the upload folder of DATA_DIR. */
  async function uploadFolders(): Promise<string[]> {
    try {
      return await readdir(uploadTempRoot(dataDir));
    } catch {
      return [];
    }
  }

  /** A 50 MB upload from the composer (`enhanced` first, as composer-draft.tsx sends it) or a plain form. */
  function bigUpload(options: { enhanced: boolean; cookie: string | null; url?: string }) {
    const fields: Record<string, string> = options.enhanced ? { enhanced: "1" } : {};
    fields.text = editorJson("Selling my bike");
    return meteredBody(
      multipartParts(boundary, fields, [
        { name: "files", filename: "ride.mov", bytes: new Uint8Array(50 * MB), type: "video/quicktime" },
      ]),
      {
        contentType,
        declare: true,
        url: options.url ?? "http://localhost/create/post",
        headers: requestHeaders(options.cookie ? { cookie: options.cookie } : {}),
      },
    );
  }

  it("answers a signed-out 50 MB upload with the sign-in modal, without reading the upload", async () => {
    const upload = bigUpload({ enhanced: true, cookie: null });
    const answer = await run(createPostAction(args(upload.request)));
    expect(answer.status).toBe(401);
    expect(answer.data).toEqual({ ok: false, refusal: { kind: "sign-in", reason: "post" } });
    // At most the fields before the file (64 KB), never the 50 MB.
    expect(upload.meter.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(await uploadFolders()).toEqual([]);
  });

  it("sends a signed-out plain form to sign up, and a gated commenter to the school prompt, unread", async () => {
    const plain = bigUpload({ enhanced: false, cookie: null });
    const page = await run(createPostAction(args(plain.request)));
    expect(page.response?.headers.get("Location")).toBe("/user_registration");
    expect(plain.meter.pulled).toBeLessThanOrEqual(64 * 1024);

    const author = await createTestMember(t);
    const post = await createTestPost(t, author.viewer);
    const newcomer = await createTestMember(t, { schoolVerified: false });
    const comment = bigUpload({
      enhanced: true,
      cookie: newcomer.cookie,
      url: `http://localhost/create/comment/${post.id}`,
    });
    const answer = await run(createCommentAction(args(comment.request, { postId: post.id })));
    expect(answer.data).toEqual({ ok: false, refusal: { kind: "verify-school" } });
    expect(comment.meter.pulled).toBeLessThanOrEqual(64 * 1024);
  });

  it("refuses a body declared over 10 files at their cap with 413, before reading it", async () => {
    const member = await createTestMember(t);
    const upload = meteredBody(
      multipartParts(boundary, { enhanced: "1" }, [
        { name: "files", filename: "a.mp4", bytes: new Uint8Array(MB) },
      ]),
      {
        contentType,
        declaredLength: MAX_COMPOSER_BODY_BYTES + 1,
        headers: requestHeaders({ cookie: member.cookie }),
      },
    );
    const answer = await run(createPostAction(args(upload.request)));
    expect(answer.status).toBe(413);
    expect(answer.data).toEqual({
      ok: false,
      toast: { message: "Photos can be up to 15 MB and videos up to 100 MB.", type: "danger" },
    });
    expect(upload.meter.pulled).toBe(0);
  });

  it("stops reading a chunked file once it passes the 100 MB cap (413), leaving nothing on disk", async () => {
    const member = await createTestMember(t);
    const upload = meteredBody(
      multipartParts(boundary, { enhanced: "1" }, [
        { name: "files", filename: "long.mp4", bytes: new Uint8Array(104 * MB) },
      ]),
      { contentType, chunkBytes: MB, headers: requestHeaders({ cookie: member.cookie }) },
    );
    const answer = await run(createPostAction(args(upload.request)));
    expect(answer.status).toBe(413);
    expect(upload.meter.pulled).toBeLessThanOrEqual(101 * MB + 64 * 1024);
    expect(upload.meter.pulled).toBeLessThan(upload.total);
    expect(await uploadFolders()).toEqual([]);
  });

  it("removes the uploaded files from disk after a post is made, and after it is refused", async () => {
    const member = await createTestMember(t);
    const form = new FormData();
    form.set("enhanced", "1");
    form.set("text", editorJson("Desk lamp"));
    form.append("files", await png());
    form.append("files", mp4File());
    const made = await run(createPostAction(args(composerRequest("/create/post", form, member.cookie))));
    expect(made.data).toMatchObject({ ok: true });
    expect(await uploadFolders()).toEqual([]);

    const refused = new FormData();
    refused.set("enhanced", "1");
    refused.set("text", editorJson("A photo"));
    refused.append("files", await png());
    refused.append("files", new File(["not a photo"], "photo.png", { type: "image/png" }));
    const answer = await run(createPostAction(args(composerRequest("/create/post", refused, member.cookie))));
    expect(answer.data).toMatchObject({ ok: false, toast: { message: "Only photos & videos are allowed!" } });
    expect(await uploadFolders()).toEqual([]);

    // A plain form's post, answered with a redirect, cleans up too.
    const plain = new FormData();
    plain.set("plainText", "Hello");
    plain.append("files", await png());
    const page = await run(createPostAction(args(composerRequest("/create/post", plain, member.cookie))));
    expect(page.response?.status).toBe(302);
    expect(await uploadFolders()).toEqual([]);
  });
});
