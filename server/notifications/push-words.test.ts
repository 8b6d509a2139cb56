import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestMember, createTestPost } from "../../tests/support/factories";
import { type PushService, startPushService } from "../../tests/support/push-service";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { editListing } from "../posts/edit-listing";
import { plainTextToRichText } from "../posts/rich-text.shared";
import { toggleSave } from "../posts/saves";
import { deliverDuePush, savePushSubscription } from "./push";

// Decision 0640: a price drop's push says what the bell and the e-mail say — 'Price drop: {title}
// is now $X (was $Y)' — and leads to the listing; the owner's own edit pushes nothing to them.

let t: TestContext;
let push: PushService;

beforeAll(async () => {
  // Decision 0460: the local push service is admitted through the test-only allowance.
  [t, push] = await Promise.all([createTestContext({ pushLocalService: true }), startPushService()]);
});
afterAll(async () => {
  await push.close();
  await t.close();
});

describe("the words of a push", () => {
  it("names a price drop with the listing's title and both prices", async () => {
    const seller = await createTestMember(t, { fullName: "Pat Price" });
    const saver = await createTestMember(t, { fullName: "Sol Saver" });
    const listing = { price: "50", priceTerms: "offers", condition: "good" };
    const post = await createTestPost(t, seller.viewer, { text: "Mini fridge, barely used", listing });
    await toggleSave(t.ctx, saver.viewer, post.id);
    const subscription = await push.subscribe(t.ctx.config.vapid.publicKey);
    await savePushSubscription(t.ctx, saver.viewer, subscription);
    // The seller's 'saved your post' push is theirs; the saver has none yet.
    await deliverDuePush(t.ctx);
    expect(await push.messages(subscription.clientHash)).toEqual([]);

    await editListing(t.ctx, seller.viewer, post.id, {
      campusId: "ou",
      text: JSON.stringify(plainTextToRichText("Mini fridge, barely used\nPick up on campus")),
      category: null,
      listing: { ...listing, price: "35" },
    });
    expect(await deliverDuePush(t.ctx)).toMatchObject({ sent: 1 });
    const messages = (await push.messages(subscription.clientHash)).map((message) => JSON.parse(message));
    expect(messages).toEqual([
      {
        title: "Campus Buy Sell",
        body: "Price drop: Mini fridge, barely used is now $35 (was $50)",
        url: `/post/${post.id}`,
        tag: `post-${post.id}`,
      },
    ]);
  });
});
