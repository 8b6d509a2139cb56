/** Decision 0570: README.txt of every archive, explaining each file in the product's words. */
export const ARCHIVE_README = `Your data from Campus Buy Sell
==============================

This archive holds everything Campus Buy Sell keeps about you. Dates are in UTC (ISO 8601),
money in US cents. Each file is JSON, which any text editor can open.

profile.json        Your profile: username, names, e-mail and school e-mail, campus, graduation
                    year, phone, bio, gender, birth date, whether you are verified, when you last
                    confirmed your school e-mail (your verified student badge lasts 12 months
                    from then), your trust level, and when you joined. "photo" names your
                    profile photo in media/profile/.
settings.json       Your e-mail notification settings, who can message you, how many accounts
                    you blocked and since when (not who: that is someone else's account), and
                    how many browsers get your push notifications.
posts.json          Your posts and listings: text (plain, and as the editor stores it), category,
                    price and condition, saves and replies counts, and their photos and videos.
comments.json       Your comments and replies; "replied_to" is the id of the post or comment you
                    answered (its text is not included: it is someone else's).
media/posts/        The photos and videos of your posts and comments, as we store them (photos
                    are the WebP copies we made when you posted, without location data).
conversations.json  The conversations you are in, with the username of the other person, and
                    whether one waits in your Requests ("pending") or you declined it.
messages.json       Every message of those conversations, sent ("me") and received ("them"),
                    with shared posts' ids and when a message was liked.
media/messages/     The photos you sent in messages.
media/profile/      Your profile photo.
saves.json          The posts you saved, and the listings you asked to hear about.
searches.json       Your recent searches.
notifications.json  Your notifications: what happened, about which post or conversation, when,
                    and whether you read it.
reviews.json        Reviews you wrote ("written") and the published reviews of you ("received"),
                    with the private notes written to you.
ads.json            Your boosted posts (ads): budget, days, refunds and status.
payments.json       Your payments and refunds, and the checkouts you started.
moderation.json     Strikes on your account and your appeals, and the reports you made.

Nothing in this archive belongs to other students, except the messages they exchanged with you.
The download link you used works only once. Keep this file somewhere safe.
`;
