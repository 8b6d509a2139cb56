import { createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { sql } from "drizzle-orm";
import { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { ARCHIVE_README } from "./export-readme";

/**
 * Decision 0570: the archive of one student's data, a ZIP of JSON files and their photos and
 * videos as stored, with README.txt. Written entry by entry to a file (never held whole): the
 * long lists are read in pages and streamed into their JSON file, the media streamed from the
 * storage seam one after the other. Nothing of other students but the messages they exchanged
 * with the student (and the chat's other username, which those messages were sent under).
 */

const PAGE = 2_000;

type Row = Record<string, unknown>;

async function rows(ctx: AppContext, query: ReturnType<typeof sql>): Promise<Row[]> {
  const result = await ctx.db.execute(query);
  return (result as unknown as { rows: Row[] }).rows;
}

/** A JSON array written as it is read, page by page (keyset on the query's own order). */
async function* jsonArray(pages: AsyncGenerator<Row[]>): AsyncGenerator<string> {
  yield "[";
  let first = true;
  for await (const page of pages) {
    for (const row of page) {
      yield `${first ? "\n" : ",\n"}${JSON.stringify(row)}`;
      first = false;
    }
  }
  yield first ? "]\n" : "\n]\n";
}

async function* single(list: Row[]): AsyncGenerator<Row[]> {
  yield list;
}

/** Entries are added one at a time and each is awaited, so one file or one query runs at once. */
class ArchiveWriter {
  readonly zip = new ZipFile();
  constructor(private readonly mtime: Date) {}

  async json(name: string, value: unknown): Promise<void> {
    this.zip.addBuffer(Buffer.from(`${JSON.stringify(value, null, 2)}\n`), name, { mtime: this.mtime });
  }

  async stream(name: string, body: Readable, compress: boolean): Promise<void> {
    this.zip.addReadStream(body, name, { mtime: this.mtime, compress });
    await finished(body);
  }

  async list(name: string, pages: AsyncGenerator<Row[]>): Promise<void> {
    await this.stream(name, Readable.from(jsonArray(pages)), true);
  }
}

/** A stored file into the archive under `name`; a file the store no longer has is skipped. */
async function addStored(
  ctx: AppContext,
  writer: ArchiveWriter,
  key: string,
  name: string,
): Promise<boolean> {
  const stored = await ctx.storage.get(key);
  if (!stored) return false;
  const body = Readable.fromWeb(stored.body as unknown as WebReadableStream<Uint8Array>);
  await writer.stream(name, body, false);
  return true;
}

function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(-80) || "file";
}

async function addProfile(ctx: AppContext, writer: ArchiveWriter, userId: string): Promise<void> {
  const [profile] = await rows(
    ctx,
    sql`select id, username, email, first_name, last_name, campus_id, school_email, school_verified,
      verified, grad_year, school_verified_at, trust_level, phone, bio, gender, birth_date, img as photo, type,
      total_posts, created_at
      from "user" where id = ${userId}`,
  );
  const key = typeof profile?.photo === "string" ? ctx.storage.keyOf(profile.photo) : null;
  const photoName = key ? `media/profile/${fileSafe(key.split("/").pop() ?? "photo.webp")}` : null;
  const photoStored = key && photoName ? await addStored(ctx, writer, key, photoName) : false;
  await writer.json("profile.json", { ...profile, photo: photoStored ? photoName : null });

  const [settings] = await rows(
    ctx,
    sql`select u.email_notifications, s.email_comments, s.email_saves, s.email_messages, u.message_policy
      from "user" u left join notification_settings s on s.user_id = u.id where u.id = ${userId}`,
  );
  const blocks = await rows(
    ctx,
    sql`select created_at from user_blocks where blocker_id = ${userId} order by created_at`,
  );
  const push = await rows(ctx, sql`select created_at from push_subscriptions where user_id = ${userId}`);
  await writer.json("settings.json", {
    ...settings,
    blockedAccounts: blocks.length,
    blockedSince: blocks.map((row) => row.created_at),
    pushBrowsers: push.length,
  });
}

/** Posts or comments, and each one's media files (streamed after the JSON, as stored). */
async function addPosts(ctx: AppContext, writer: ArchiveWriter, userId: string): Promise<void> {
  const all = await rows(
    ctx,
    sql`select p.id, p.type, p.parent_id as replied_to, p.root_id as thread, p.text_plain as text, p.text as rich_text,
      p.category, p.price_cents, p.price_terms, p.condition, p.listing_kind, p.listing_status,
      p.like_count as saves, p.comment_count as replies, p.moderation_state, p.created_at, p.last_modified,
      coalesce((select json_agg(json_build_object('kind', m.kind, 'key', m.img_path, 'name', m.img_name,
        'order', m.img_order) order by m.img_order) from post_media m where m.post_id = p.id), '[]') as media
      from posts p where p.author_id = ${userId} order by p.created_at, p.id`,
  );
  const files: { key: string; name: string }[] = [];
  for (const post of all) {
    const media = (post.media as { kind: string; key: string; name: string; order: number }[]).map((m) => {
      const extension = m.key.includes(".") ? m.key.slice(m.key.lastIndexOf(".")) : "";
      const name = `media/posts/${post.id}/${m.order}-${fileSafe(m.name.replace(/\.[^.]*$/, ""))}${extension}`;
      files.push({ key: m.key, name });
      return { kind: m.kind, file: name, originalName: m.name };
    });
    post.media = media;
  }
  await writer.list("posts.json", single(all.filter((post) => post.replied_to === null)));
  await writer.list("comments.json", single(all.filter((post) => post.replied_to !== null)));
  for (const file of files) await addStored(ctx, writer, file.key, file.name);
}

/** The chats the student is in, and every message of them, in pages of PAGE. */
async function addMessages(ctx: AppContext, writer: ArchiveWriter, userId: string): Promise<void> {
  const chats = await rows(
    ctx,
    sql`select c.id, o.username as with_username, c.created_at, cm.request_state
      from chat_members cm join chats c on c.id = cm.chat_id join "user" o on o.id = cm.other_user_id
      where cm.user_id = ${userId} order by c.created_at, c.id`,
  );
  const sentPhotos: { key: string; name: string }[] = [];
  async function* pages(): AsyncGenerator<Row[]> {
    let after: { chat: string; seq: number } | null = null;
    for (;;) {
      const page: Row[] = await rows(
        ctx,
        sql`select m.id, m.chat_id, m.seq, case when m.sender_id = ${userId} then 'me' else 'them' end as sender,
          case when m.moderation_state is null then m.text else '' end as text, m.post_id as shared_post,
          m.img_path, m.liked_at, m.moderation_state, m.created_at
          from chat_members cm join chat_messages m on m.chat_id = cm.chat_id
          where cm.user_id = ${userId}
            ${after ? sql`and (m.chat_id, m.seq) > (${after.chat}::uuid, ${after.seq})` : sql``}
          order by m.chat_id, m.seq limit ${PAGE}`,
      );
      for (const message of page) {
        const key = message.img_path as string | null;
        message.photo = null;
        if (key && message.sender === "me" && message.moderation_state === null) {
          const name = `media/messages/${message.id}${key.includes(".") ? key.slice(key.lastIndexOf(".")) : ""}`;
          sentPhotos.push({ key, name });
          message.photo = name;
        } else if (key) message.photo = "a photo (not included: only the photos you sent are)";
        delete message.img_path;
      }
      if (page.length > 0) yield page;
      const last = page.at(-1);
      if (page.length < PAGE || !last) return;
      after = { chat: String(last.chat_id), seq: Number(last.seq) };
    }
  }
  await writer.json("conversations.json", chats);
  await writer.list("messages.json", pages());
  for (const photo of sentPhotos) await addStored(ctx, writer, photo.key, photo.name);
}

async function addActivity(ctx: AppContext, writer: ArchiveWriter, userId: string): Promise<void> {
  const saves = await rows(
    ctx,
    sql`select post_id, created_at from post_likes where user_id = ${userId} order by created_at`,
  );
  const watches = await rows(
    ctx,
    sql`select post_id, created_at from listing_watches where user_id = ${userId} order by created_at`,
  );
  await writer.json("saves.json", { saved: saves, notifyWhenAvailable: watches });
  await writer.list(
    "searches.json",
    single(
      await rows(
        ctx,
        sql`select campus_id, search_text, search_qty as times, created_at, last_modified as last_searched
          from search_history where user_id = ${userId} order by last_modified desc`,
      ),
    ),
  );
  async function* notificationPages(): AsyncGenerator<Row[]> {
    let after: { at: unknown; id: string } | null = null;
    for (;;) {
      const page: Row[] = await rows(
        ctx,
        sql`select id, type, read, post_id, comment_id, chat_id, created_at from notifications
          where user_id = ${userId} ${after ? sql`and (created_at, id) < (${after.at}, ${after.id}::uuid)` : sql``}
          order by created_at desc, id desc limit ${PAGE}`,
      );
      if (page.length > 0) yield page;
      const last = page.at(-1);
      if (page.length < PAGE || !last) return;
      after = { at: last.created_at, id: String(last.id) };
    }
  }
  await writer.list("notifications.json", notificationPages());
  // Decision 0615: the reviews the student wrote (without their private note, which is its
  // subject's) and the published ones they received, with their private notes (their own).
  const now = ctx.clock.now().toISOString();
  await writer.json("reviews.json", {
    written: await rows(
      ctx,
      sql`select r.id, r.deal_id, s.username as subject, r.subject_role, r.stars, r.tags, r.public_text,
          r.reply, r.created_at, r.publishes_at, r.moderation_state
        from reviews r join "user" s on s.id = r.subject_id
        where r.author_id = ${userId} order by r.created_at desc`,
    ),
    received: await rows(
      ctx,
      sql`select r.id, r.deal_id, a.username as author, r.subject_role as my_role, r.stars, r.tags, r.public_text,
          r.private_note, r.reply, r.publishes_at as published_at
        from reviews r join "user" a on a.id = r.author_id
        where r.subject_id = ${userId} and r.publishes_at <= ${now}::timestamptz and r.moderation_state is null
        order by r.publishes_at desc`,
    ),
  });
}

async function addMoney(ctx: AppContext, writer: ArchiveWriter, userId: string): Promise<void> {
  const ads = await rows(
    ctx,
    sql`select id, post_id, title, cta_type, cta_label, cta_url, days, run_until_pause, amount_budgeted,
      amount_refunded, status, start_time, end_time_adjusted, ended_at, created_at
      from ads where user_id = ${userId} order by created_at`,
  );
  await writer.json("ads.json", ads);
  const payments = await rows(
    ctx,
    sql`select id, kind, status, amount, currency, provider, description, ad_id, created_at
      from payments where user_id = ${userId} order by created_at`,
  );
  const checkouts = await rows(
    ctx,
    sql`select id, ad_id, provider, amount_total, currency, status, created_at
      from checkout_sessions where user_id = ${userId} order by created_at`,
  );
  await writer.json("payments.json", { payments, checkouts });
  const strikes = await rows(
    ctx,
    sql`select s.action, s.target_kind, s.reason_code, s.public_reason, s.suspended_until, s.created_at,
      s.overruled_at, a.text as appeal, a.status as appeal_status, a.decision_reason as appeal_decision
      from strikes s left join appeals a on a.strike_id = s.id where s.user_id = ${userId} order by s.created_at`,
  );
  const reports = await rows(
    ctx,
    sql`select target_kind, target_id, reason, comment, created_at from reports
      where reporter_id = ${userId} order by created_at`,
  );
  await writer.json("moderation.json", { strikes, reportsYouMade: reports });
}

/**
 * Writes the archive of `userId` to `target` (through a `.part` file renamed at the end, so a
 * half-written archive is never served). Returns its size in bytes.
 */
export async function writeArchive(ctx: AppContext, userId: string, target: string): Promise<number> {
  const part = `${target}.part`;
  const writer = new ArchiveWriter(ctx.clock.now());
  const output = createWriteStream(part);
  writer.zip.outputStream.pipe(output);
  const written = finished(output);
  try {
    writer.zip.addBuffer(Buffer.from(ARCHIVE_README), "README.txt", { mtime: ctx.clock.now() });
    await addProfile(ctx, writer, userId);
    await addPosts(ctx, writer, userId);
    await addMessages(ctx, writer, userId);
    await addActivity(ctx, writer, userId);
    await addMoney(ctx, writer, userId);
    writer.zip.end();
    await written;
  } catch (error) {
    output.destroy();
    await rm(part, { force: true });
    throw error;
  }
  await rename(part, target);
  return (await stat(target)).size;
}
