import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mediaPostRoute from "../../app/routes/media/media-post";
import * as postRoute from "../../app/routes/posts/post";
import * as profileRoute from "../../app/routes/profile/profile";
import { createTestMember, createTestPost } from "../../tests/support/factories";
import { type RouteServer, startRouteServer } from "../../tests/support/route-server";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { getProfilePage } from "../profiles/profiles";

// Decision 0135: a shared link to a post of a private campus, opened by a visitor,
// gives a preview of the campus ('Join to see this listing'), never the post: not in the data the
// page is rendered from (and hydrated with), not in its title or link-preview tags.

const TEXT = "Selling my grandmother's violin for 900 dollars";
const AUTHOR = "Margarethe Quist";

let t: TestContext;
let server: RouteServer;
let postId = "";
let username = "";

beforeAll(async () => {
  // As deployed by default: PUBLIC_CAMPUSES unset, every campus private.
  t = await createTestContext({ publicCampuses: [] });
  t.clock.set(new Date());
  const member = await createTestMember(t, { campusId: "ou", fullName: AUTHOR });
  postId = (await createTestPost(t, member.viewer, { text: TEXT })).id;
  username = member.viewer.username;
  server = await startRouteServer(t, [
    { id: "routes/posts/post", path: "post/:id", module: postRoute },
    { id: "routes/media/media-post", path: "media/:id", module: mediaPostRoute },
    { id: "routes/profile/profile", path: ":username", module: profileRoute },
  ]);
});

afterAll(async () => {
  await server.close();
  await t.close();
});

/** The route's loader data, as a visitor's browser asks for the page (127.0.0.1 serves OU). */
async function visitorData(path: string, routeId: string): Promise<unknown> {
  const response = await fetch(`${server.base}${path}`);
  const body = (await response.json()) as { loaderData: Record<string, unknown> };
  return body.loaderData[routeId];
}

/** Everything the head of the page says: the route's meta for that data. */
function headOf(meta: (args: never) => unknown, loaderData: unknown): string {
  const campus = t.ctx.campuses.get("ou");
  const args = { data: loaderData, matches: [{ id: "root", loaderData: { campus } }] };
  return JSON.stringify(meta(args as never));
}

describe("a shared link to a private campus's post, opened by a visitor", () => {
  for (const [path, routeId, meta] of [
    ["/post/", "routes/posts/post", postRoute.meta],
    ["/media/", "routes/media/media-post", mediaPostRoute.meta],
  ] as const) {
    it(`${path}{id} holds nothing of the post, in its data or its head`, async () => {
      const loaderData = await visitorData(`${path}${postId}`, routeId);
      expect(loaderData).toEqual({ state: "private" });
      const head = headOf(meta, loaderData);
      for (const secret of [TEXT, "violin", AUTHOR, "Margarethe", postId]) expect(head).not.toContain(secret);
      expect(head).toContain('"title":"Join to see this listing | OU Buy / Sell"');
      expect(head).toContain('{"property":"og:title","content":"OU Buy / Sell"}');
      expect(head).toContain('{"property":"og:description","content":"Join to see this listing"}');
      expect(head).toContain('{"name":"twitter:description","content":"Join to see this listing"}');
      expect(head).toContain('{"name":"robots","content":"noindex"}');
    });
  }
});

// Decision 0135: a private campus's people are for its members too, as its posts are.
describe("a member's profile on a private campus, opened by a visitor", () => {
  it("is the private gate: nothing of the member in the page's data or its head", async () => {
    const loaderData = await visitorData(`/${username}`, "routes/profile/profile");
    expect(loaderData).toEqual({ found: false, privateGate: true });
    const head = headOf(profileRoute.meta, loaderData);
    for (const secret of [AUTHOR, "Margarethe", "Quist", "/media-files/"]) expect(head).not.toContain(secret);
    expect(head).toContain('"title":"This community is private | OU Buy / Sell"');
    expect(head).toContain('{"name":"robots","content":"noindex"}');
  });

  it("is refused by the domain to a visitor, whether or not the username exists, and read by a member", async () => {
    for (const name of [username, "nobody-by-this-name"]) {
      await expect(getProfilePage(t.ctx, null, "ou", name)).rejects.toMatchObject({ code: "private-campus" });
    }
    const member = await createTestMember(t, { campusId: "ou", fullName: "Ola Nordmann" });
    expect((await getProfilePage(t.ctx, member.viewer, "ou", username))?.firstName).toBe("Margarethe");
  });
});
