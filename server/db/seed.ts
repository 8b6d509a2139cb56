import { hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { insertNewUserPost } from "../posts/new-user-post";
import { plainTextToRichText, richTextToPlainText } from "../posts/rich-text";
import { account, posts, user } from "./schema";

/** Demo students for a first look (README 'Demo accounts'); all share one password. */
export const DEMO_PASSWORD = "campus123";

interface DemoStudent {
  first: string;
  last: string;
  username: string;
  email: string;
  schoolEmail: string;
  campusId: string;
  bio: string;
  posts: { text: string; category: string | null }[];
}

// School e-mails use the campus domain (so the demo students are members of
// their campus) under a `demo.` subdomain nobody receives mail on.
const demoStudents: DemoStudent[] = [
  {
    first: "Olivia",
    last: "M.",
    username: "oliviam",
    email: "olivia@demo.campusbuysell.test",
    schoolEmail: "olivia@demo.ou.edu",
    campusId: "ou",
    bio: "Junior in architecture. Selling what no longer fits in my apartment.",
    posts: [
      {
        text: "Mid-century desk, solid oak, 120 x 60 cm. $85, pick up near campus corner.",
        category: "furniture",
      },
      {
        text: "Calculus: Early Transcendentals, 8th edition. Clean, no highlighting. $40.",
        category: "books/movies/music",
      },
    ],
  },
  {
    first: "Marcus",
    last: "J.",
    username: "marcusj",
    email: "marcus@demo.campusbuysell.test",
    schoolEmail: "marcus@demo.ou.edu",
    campusId: "ou",
    bio: "Engineering senior, cyclist, occasional seller of spare parts.",
    posts: [
      {
        text: "Two tickets for Saturday's home game, section 14.\nFace value, meet at the union.",
        category: "tickets",
      },
    ],
  },
  {
    first: "Priya",
    last: "K.",
    username: "priyak",
    email: "priya@demo.campusbuysell.test",
    schoolEmail: "priya@demo.utexas.edu",
    campusId: "ut",
    bio: "Grad student in public health. Moving out in May.",
    posts: [{ text: "Mini fridge, works perfectly, fits under a dorm desk. $50.", category: "household" }],
  },
];

/** Seeds demo data only into an empty database, so it never touches real users. */
export async function seedDemoData(ctx: AppContext): Promise<void> {
  const [row] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(user);
  if ((row?.count ?? 0) > 0) return;
  const password = await hashPassword(DEMO_PASSWORD);
  const start = ctx.clock.now().getTime() - 6 * 60 * 60 * 1000;
  let minute = 0;
  const nextMoment = () => new Date(start + ++minute * 7 * 60 * 1000);
  await ctx.db.transaction(async (tx) => {
    for (const student of demoStudents) {
      const id = crypto.randomUUID();
      const joined = nextMoment();
      await tx.insert(user).values({
        id,
        name: `${student.first} ${student.last}`,
        email: student.email,
        verified: true,
        firstName: student.first,
        lastName: student.last,
        username: student.username,
        campusId: student.campusId,
        schoolEmail: student.schoolEmail,
        schoolVerified: true,
        bio: student.bio,
        totalPosts: student.posts.length,
        createdAt: joined,
        updatedAt: joined,
      });
      await tx.insert(account).values({
        id: crypto.randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password,
        createdAt: joined,
        updatedAt: joined,
      });
      await insertNewUserPost(tx, { authorId: id, campusId: student.campusId, at: joined });
      for (const post of student.posts) {
        const text = plainTextToRichText(post.text);
        const at = nextMoment();
        await tx.insert(posts).values({
          campusId: student.campusId,
          authorId: id,
          text,
          textPlain: richTextToPlainText(text),
          category: post.category,
          createdAt: at,
          lastModified: at,
        });
      }
    }
  });
  ctx.log.info({ users: demoStudents.map((s) => s.email), password: DEMO_PASSWORD }, "seeded demo students");
}
