import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListingActionData } from "~/app/components/posts/listing-actions";
import { action as postAction } from "~/app/routes/posts/post";
import { CampusDirectory } from "~/server/campuses/directory";
import { posts } from "~/server/db/schema";
import { createTestMember, createTestPost, requestHeaders } from "~/tests/support/factories";
import { createTestContext, type TestContext } from "~/tests/support/test-context";

// Decision 0170: the post page's listing intents through the route, as a browser sends
// them: only the owner changes the status, whatever id is in the address; the answer says so.

let t: TestContext;
let campuses: CampusDirectory;

beforeAll(async () => {
  t = await createTestContext();
  campuses = new CampusDirectory(t.ctx.db, {});
  await campuses.refresh();
});
afterAll(() => t.close());

async function send(postId: string, cookie: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request(`http://localhost/post/${postId}`, {
    method: "POST",
    body: form,
    headers: requestHeaders({ cookie }),
  });
  const campus = campuses.get("ou");
  const result = (await postAction({
    request,
    params: { id: postId },
    context: { app: t.ctx, auth: t.auth, campuses, campus, nonce: "", clientIp: null },
  } as never)) as unknown as { data: ListingActionData; init?: ResponseInit | null };
  return { data: result.data, status: result.init?.status ?? 200 };
}

async function statusOf(postId: string) {
  const [row] = await t.ctx.db
    .select({ status: posts.listingStatus })
    .from(posts)
    .where(eq(posts.id, postId));
  return row?.status;
}

describe("set-listing-status on the post page's action", () => {
  it("marks the owner's listing sold, with the toast", async () => {
    const seller = await createTestMember(t);
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "40" } });
    const answer = await send(id, seller.cookie, { intent: "set-listing-status", status: "sold" });
    expect(answer).toMatchObject({
      status: 200,
      data: { ok: true, status: "sold", toast: { message: "Marked as sold.", type: "success" } },
    });
    expect(await statusOf(id)).toBe("sold");
  });

  it("refuses anyone else with 403, changing nothing", async () => {
    const seller = await createTestMember(t);
    const other = await createTestMember(t);
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "40" } });
    const answer = await send(id, other.cookie, { intent: "set-listing-status", status: "sold" });
    expect(answer.status).toBe(403);
    expect(answer.data).toMatchObject({ ok: false, toast: { type: "danger" } });
    expect(await statusOf(id)).toBe("available");
  });

  it("answers renewing a fresh listing with 409 and the reason", async () => {
    const seller = await createTestMember(t);
    const { id } = await createTestPost(t, seller.viewer, { listing: { price: "40" } });
    const answer = await send(id, seller.cookie, { intent: "renew-listing" });
    expect(answer.status).toBe(409);
    expect(answer.data.toast?.message).toBe("Listings can be renewed once they are 60 days old.");
  });
});
