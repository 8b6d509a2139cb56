import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader } from "~/app/routes/notifications/notifications";
import { CampusDirectory } from "~/server/campuses/directory";
import { createTestMember, requestHeaders, type TestMember } from "~/tests/support/factories";
import { createTestContext, type TestContext } from "~/tests/support/test-context";

// spec 2 §7 'Failed queries give an empty list and error state' (decision 0250: an error state
// with retry, never an empty list that says there is nothing).

let t: TestContext;
let campuses: CampusDirectory;
let member: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  campuses = new CampusDirectory(t.ctx.db, {});
  await campuses.refresh();
  member = await createTestMember(t);
});
afterAll(() => t.close());

async function load(path = "/notifications") {
  const campus = campuses.get("ou");
  const request = new Request(`http://localhost${path}`, {
    headers: requestHeaders({ cookie: member.cookie }),
  });
  const result = (await loader({
    request,
    params: {},
    context: { app: t.ctx, auth: t.auth, campuses, campus, nonce: "", clientIp: null },
  } as unknown as Parameters<typeof loader>[0])) as unknown as {
    data: { page: unknown; listError: string | null };
    init?: ResponseInit | null;
  };
  return { data: result.data, status: result.init?.status ?? 200 };
}

describe("the /notifications loader", () => {
  it("answers a list that could not be read with its error, not an empty list", async () => {
    expect(await load()).toMatchObject({ status: 200, data: { listError: null, page: { items: [] } } });
    await t.ctx.db.execute(sql`alter table notifications rename to notifications_away`);
    try {
      expect(await load()).toEqual({
        status: 500,
        data: expect.objectContaining({ page: null, listError: "Something went wrong." }),
      });
    } finally {
      await t.ctx.db.execute(sql`alter table notifications_away rename to notifications`);
    }
  });

  it("answers a tampered cursor with the list's message and 400", async () => {
    const answer = await load("/notifications?cursor=tampered");
    expect(answer.status).toBe(400);
    expect(answer.data.page).toBeNull();
    expect(answer.data.listError).toMatch(/could not be loaded/);
  });
});
