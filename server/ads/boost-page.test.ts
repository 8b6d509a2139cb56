import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as boostRoute from "../../app/routes/ads/boost";
import { createTestMember, createTestPost, type TestMember } from "../../tests/support/factories";
import { type RouteServer, startRouteServer } from "../../tests/support/route-server";
import { createTestContext, type TestContext } from "../../tests/support/test-context";

// Decision 0466: the boost page of a campus of 3 members promised 'Estimated daily reach:
// 590-1,500 people', and proposed a website to a student selling a fridge.

let t: TestContext;
let server: RouteServer;
let seller: TestMember;

beforeAll(async () => {
  t = await createTestContext();
  t.clock.set(new Date());
  seller = await createTestMember(t);
  await createTestMember(t);
  await createTestMember(t);
  server = await startRouteServer(t, [
    { id: "routes/ads/boost", path: "post/:id/boost", module: boostRoute },
  ]);
});

afterAll(async () => {
  await server.close();
  await t.close();
});

async function boostPage(postId: string) {
  const response = await fetch(`${server.base}/post/${postId}/boost`, { headers: { cookie: seller.cookie } });
  const body = (await response.json()) as { loaderData: Record<string, unknown> };
  return body.loaderData["routes/ads/boost"] as { defaultGoal: string; reach: Record<string, string> };
}

describe("the boost page (decision 0466)", () => {
  it("shows the reach a campus of 3 members allows, and a listing's goal is messages", async () => {
    const fridge = await createTestPost(t, seller.viewer, {
      text: "Mini fridge, pick up by Friday",
      listing: { price: "$40", priceTerms: "offers", condition: "good" },
    });
    const page = await boostPage(fridge.id);
    expect(page.reach).toEqual({ fixed: "1-2 people", untilPause: "1-2 people" });
    expect(page.defaultGoal).toBe("message");
  });

  it("keeps the spec's default goal, website visits, for a post that is not a listing", async () => {
    const club = await createTestPost(t, seller.viewer, { text: "Our robotics club's open day" });
    expect((await boostPage(club.id)).defaultGoal).toBe("website");
  });
});
