import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostActionData } from "~/app/components/posts/post-actions";
import { action as postAction } from "~/app/routes/posts/post";
import { CampusDirectory } from "~/server/campuses/directory";
import { postLikes, posts } from "~/server/db/schema";
import { createTestMember, createTestPost, requestHeaders } from "~/tests/support/factories";
import { createTestContext, type TestContext } from "~/tests/support/test-context";

// The post page's 'toggle-save' intent (spec 2 §4 'Save/like') through the route, as a browser sends it:
// decision 0117 — another campus's post cannot be saved from one's own campus's host, and ids that are
// not posts get a 4xx, changing nothing.

let t: TestContext;
let campuses: CampusDirectory;

beforeAll(async () => {
  t = await createTestContext();
  campuses = new CampusDirectory(t.ctx.db, {});
  await campuses.refresh();
});
afterAll(() => t.close());

function saveRequest(postId: string, cookie: string): Request {
  const form = new FormData();
  form.set("intent", "toggle-save");
  return new Request(`http://localhost/post/${encodeURIComponent(postId)}`, {
    method: "POST",
    body: form,
    headers: requestHeaders({ cookie }),
  });
}

/** Route action arguments as the server builds them for a request to `campusId`'s host. */
function args<Args>(request: Request, params: Record<string, string>, campusId = "ou"): Args {
  const campus = campuses.get(campusId);
  if (!campus) throw new Error(`campus ${campusId} is not seeded`);
  return {
    request,
    params,
    context: { app: t.ctx, auth: t.auth, campuses, campus, nonce: "", clientIp: null },
  } as unknown as Args;
}

async function save(postId: string, cookie: string) {
  const result = (await postAction(args(saveRequest(postId, cookie), { id: postId }))) as unknown as {
    data: PostActionData;
    init?: ResponseInit | null;
  };
  return { data: result.data, status: result.init?.status ?? 200 };
}

async function savesOf(postId: string) {
  const [post] = await t.ctx.db
    .select({ saveCount: posts.saveCount })
    .from(posts)
    .where(eq(posts.id, postId));
  const saves = await t.ctx.db.select().from(postLikes).where(eq(postLikes.postId, postId));
  return { saveCount: post?.saveCount, saves: saves.length };
}

describe("toggle-save on the post page's action", () => {
  it("refuses another campus's post from one's own campus's host with 403 and the campus message", async () => {
    const sooner = await createTestMember(t, { campusId: "ou" });
    const longhorn = await createTestMember(t, { campusId: "ut" });
    const { id } = await createTestPost(t, longhorn.viewer);
    const answer = await save(id, sooner.cookie);
    expect(answer.status).toBe(403);
    expect(answer.data).toMatchObject({
      intent: "toggle-save",
      ok: false,
      toast: { message: "You can only post and comment in your own campus.", type: "danger" },
    });
    expect(await savesOf(id)).toEqual({ saveCount: 0, saves: 0 });
  });

  it("answers ids that are not posts with 404, changing nothing; its own campus's post is saved", async () => {
    const member = await createTestMember(t);
    const { id } = await createTestPost(t, member.viewer);
    for (const bad of ["nonsense", "6f1c9a36-0000-4000-8000-00000000abcd", `${id}\r\nx`, "%00"]) {
      const answer = await save(bad, member.cookie);
      expect(answer.status, bad).toBe(404);
      expect(answer.data).toMatchObject({
        ok: false,
        toast: { message: "Sorry, that post has been deleted." },
      });
    }
    expect(await savesOf(id)).toEqual({ saveCount: 0, saves: 0 });
    expect(await save(id, member.cookie)).toMatchObject({ status: 200, data: { ok: true, saved: true } });
    expect(await savesOf(id)).toEqual({ saveCount: 1, saves: 1 });
  });
});
