import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

// In the order of the spec's route tables (spec 1 §2, then spec 2 §2).
export default [
  index("routes/feed/index-redirect.tsx"),
  route("404", "routes/errors/not-found.tsx"),
  route("user_registration", "routes/auth/user-registration.tsx"),
  route("login", "routes/auth/login.tsx"),
  route("register", "routes/auth/register.tsx"),
  route("verify", "routes/auth/verify.tsx"),
  route("forgotpassword", "routes/auth/forgot-password.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("login/sent", "routes/auth/login-sent.tsx"),
  route("search_schools", "routes/search/search-schools.tsx"),
  route("settings", "routes/settings/layout.tsx", [
    index("routes/settings/index.tsx"),
    route("about", "routes/settings/about.tsx"),
    route("howitworks", "routes/settings/how-it-works.tsx"),
    route("returns", "routes/settings/returns.tsx"),
    route("trust_and_safety", "routes/settings/trust-and-safety.tsx"),
    route("terms", "routes/settings/terms.tsx"),
    route("privacy", "routes/settings/privacy.tsx"),
    route("cookies", "routes/settings/privacy.tsx", { id: "settings-cookies" }),
    route("help", "routes/settings/help.tsx"),
    route("feedback", "routes/settings/feedback.tsx"),
    layout("routes/protected.tsx", { id: "settings-protected" }, [
      route("account", "routes/settings/account.tsx"),
      route("account/screen_name", "routes/settings/account/screen-name.tsx"),
      route("account/password", "routes/settings/account/password.tsx"),
      route("account/email", "routes/settings/account/email.tsx"),
      route("account/verify_email", "routes/settings/account/verify-email.tsx"),
      route("account/school_email", "routes/settings/account/school-email.tsx"),
      route("account/verify_school_email", "routes/settings/account/verify-school-email.tsx"),
      // Decision 0682: the class year of a student verified before it was asked (the year banner).
      route("account/graduation_year", "routes/settings/account/graduation-year.tsx"),
      route("account/phone", "routes/settings/account/phone.tsx"),
      route("account/gender", "routes/settings/account/gender.tsx"),
      route("account/birth_date", "routes/settings/account/birth-date.tsx"),
      route("account/blocked", "routes/settings/account/blocked.tsx"),
      // Decision 0670: 'Who can message me'.
      route("account/messages", "routes/settings/account/messages.tsx"),
      // Decision 0548: strikes, restrictions, removed items and appeals.
      route("account/standing", "routes/settings/account/standing.tsx"),
      route("account/trust", "routes/settings/account/trust.tsx"),
      // Decisions 0570 and 0571: Download my data, Delete my account, and the archive's mailed link.
      route("account/data", "routes/settings/account/data.tsx"),
      route("account/data/download", "routes/settings/account/data-download.tsx"),
      route("payments", "routes/settings/payments.tsx"),
      route("notifications", "routes/settings/notifications.tsx", { id: "settings-notifications" }),
      // Decision 0620: saved searches and their alerts.
      route("searches", "routes/settings/searches.tsx"),
    ]),
  ]),
  layout("routes/protected.tsx", [
    route("logout", "routes/auth/logout.tsx"),
    route("profile/set-up", "routes/profile/set-up.tsx"),
    route("profile", "routes/profile/profile.tsx", { id: "own-profile" }),
    // spec 2 §2 'Messages': the inbox beside the open chat; /messages/new is the mobile new-message page.
    route("messages", "routes/messages/layout.tsx", [
      index("routes/messages/index.tsx"),
      route("new", "routes/messages/new.tsx"),
      route(":chatId", "routes/messages/chat.tsx"),
      // Decision 0611: a conversation's meetup forms.
      route(":chatId/meetup", "routes/messages/meetup.tsx"),
    ]),
    route("create/post", "routes/posts/create-post.tsx"),
    route("create/categories", "routes/posts/create-categories.tsx"),
    route("create/comment/:postId", "routes/posts/create-comment.tsx"),
    // spec 1 §2: the full-page message creator of phones is the new-message page.
    route("create/message", "routes/messages/new.tsx", { id: "create-message" }),
    route("create/*", "routes/coming-soon.tsx", { id: "create" }),
    // spec 2 §2 Ads (decision 0270): the list, split with the detail above 1000 px.
    route("ads", "routes/ads/ads.tsx", [
      index("routes/ads/ads-index.tsx"),
      route(":adId", "routes/ads/ad.tsx"),
    ]),
    route("saved", "routes/posts/saved.tsx"),
    // Decision 0618: a completed deal's review page, for its two people only.
    route("deals/:dealId/review", "routes/trade/review.tsx"),
    route("notifications", "routes/notifications/notifications.tsx"),
    route("notifications/mentions", "routes/notifications/mentions.tsx"),
    // Decisions 0601–0604: the trade's forms (offers, deals, 'Mark sold to…').
    route("trade", "routes/trade/trade.tsx"),
  ]),
  // spec 1 §2: /profile/edit sends signed-out visitors to /login (its own loader), not to /.
  route("profile/edit", "routes/profile/edit.tsx"),
  route("home", "routes/feed/home.tsx"),
  route("search", "routes/search/search.tsx"),
  route("search/data", "routes/search/search-data.tsx"),
  // Decision 0251: reached from an e-mail without a session (a signed token), so not protected.
  route("notifications/unsubscribe", "routes/notifications/unsubscribe.tsx"),
  // Decision 0630: a saved search's one-click unsubscribe, by its own token (no session either).
  route("notifications/unsubscribe/search", "routes/notifications/unsubscribe-search.tsx"),
  route("manifest.webmanifest", "routes/app/manifest.ts"),
  route("media", "routes/media/media.tsx"),
  route("media/:id", "routes/media/media-post.tsx"),
  route("post/:id", "routes/posts/post.tsx"),
  route("post/:id/likes", "routes/posts/post-likes.tsx"),
  // Decision 0640: the owner's edit form (404 for anyone else).
  route("post/:id/edit", "routes/posts/edit-post.tsx"),
  route("post/:id/boost", "routes/ads/boost.tsx"),
  route("post/:id/boost/success", "routes/ads/boost-success.tsx"),
  route("post/:id/boost/cancel", "routes/ads/boost-cancel.tsx"),
  // Decision 0270: the built-in test checkout (404 with Stripe keys and in production).
  route("checkout/test/:sessionId", "routes/ads/test-checkout.tsx"),
  route("dev/mail", "routes/dev/mail.tsx"),
  // Decision 0520: staff pages; a 404 for anyone but the staff they are for, signed out included.
  route("admin/moderators", "routes/admin/moderators.tsx"),
  // Decisions 0550–0553: the operator console's dashboard, jobs and mail (site admins only).
  route("admin", "routes/admin/dashboard.tsx"),
  route("admin/jobs", "routes/admin/jobs.tsx"),
  // Decision 0654: the safety rules, extended by site admins.
  route("admin/safety", "routes/admin/safety.tsx"),
  route("admin/mail", "routes/admin/mail.tsx"),
  route("admin/campuses", "routes/admin/campuses.tsx"),
  route("admin/campuses/:id", "routes/admin/campus.tsx"),
  // Decision 0610: the campus page's 'Meetup spots' forms.
  route("admin/campuses/:id/spots", "routes/admin/campus-spots.tsx"),
  route("admin/students", "routes/admin/students.tsx"),
  route("admin/students/:id", "routes/admin/student.tsx"),
  route("admin/payments", "routes/admin/payments.tsx"),
  // Decision 0549: the campus's public moderation log ('modlog' is a reserved username).
  route("modlog", "routes/modlog/modlog.tsx"),
  // Decision 0541: the moderation queue and an item of it (404 for anyone but its staff).
  route("mod", "routes/mod/queue.tsx"),
  route("mod/items/:id", "routes/mod/item.tsx"),
  // Last of the one-segment paths: anything not taken above is a username (spec 1 §2 /{username}).
  route(":username", "routes/profile/profile.tsx", { id: "public-profile" }),
  route("*", "routes/errors/not-found.tsx", { id: "catch-all" }),
] satisfies RouteConfig;
