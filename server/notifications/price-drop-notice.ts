import { posts, priceDrops } from "../db/schema";

/**
 * Decision 0640: what a 'price drop' notice's words are read from — its price_drops row (by
 * primary key) and the listing's text now — for the list, the push and the e-mail alike. The
 * readers left join `price_drops` on notifications.price_drop_id and `posts` on its post_id.
 */
export const priceDropNoticeColumns = {
  fromCents: priceDrops.fromCents,
  toCents: priceDrops.toCents,
  listingText: posts.textPlain,
};
