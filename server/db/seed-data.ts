import type { ListingInput } from "../posts/input";
import type { RoleGrant } from "../staff/roles";
import type { DemoDrawing } from "./seed-images";

/** The demo data the seed writes (seed.ts): students, their listings, one conversation. */

/** Demo students for a first look (README 'Demo accounts'); all share one password. */
export const DEMO_PASSWORD = "campus123";

export const HOUR_MS = 60 * 60 * 1000;

/** Decision 0520: Marcus moderates OU and Priya is a site admin, so the staff pages can be tried. */
export const DEMO_STAFF: readonly (readonly [string, RoleGrant])[] = [
  ["marcusj", { role: "campus_moderator", campusId: "ou" }],
  ["priyak", { role: "site_admin", campusId: null }],
];

interface DemoListing {
  /** The picture drawn for it (seed-images.ts) and the name on its tag. */
  drawing: DemoDrawing;
  name: string;
  text: string;
  category: string;
  listing: ListingInput;
  /** How long before the seed it was posted. */
  hoursAgo: number;
  /** Marked sold this many hours before the seed. */
  soldHoursAgo?: number;
}

export interface DemoStudent {
  first: string;
  last: string;
  username: string;
  email: string;
  schoolEmail: string;
  campusId: string;
  bio: string;
  avatarColours: [string, string];
  listings: DemoListing[];
}

// School e-mails use the campus domain (so the demo students are members of
// their campus) under a `demo.` subdomain nobody receives mail on.
export const demoStudents: DemoStudent[] = [
  {
    first: "Olivia",
    last: "M.",
    username: "oliviam",
    email: "olivia@demo.campusbuysell.test",
    schoolEmail: "olivia@demo.ou.edu",
    campusId: "ou",
    bio: "Junior in architecture. Selling what no longer fits in my apartment.",
    avatarColours: ["#ff7e5f", "#c850c0"],
    listings: [
      {
        drawing: "textbook",
        name: "Calculus, 8th ed.",
        text: "Calculus: Early Transcendentals, 8th edition (Stewart). Used for MATH 1823 and 2423.\nClean, no highlighting, cover slightly bent.",
        category: "books/movies/music",
        listing: { price: "40", priceTerms: "firm", condition: "good" },
        hoursAgo: 90,
      },
      {
        drawing: "desk",
        name: "Oak writing desk",
        text: "Mid-century writing desk, solid oak, 120 x 60 cm, one drawer.\nPick up near Campus Corner, I can help carry it down.",
        category: "furniture",
        listing: { price: "85", priceTerms: "offers", condition: "good" },
        hoursAgo: 70,
      },
      {
        drawing: "calculator",
        name: "TI-84 wanted",
        text: "Looking for a TI-84 Plus graphing calculator for stats this semester. Up to $50 depending on condition, can meet at Bizzell.",
        category: "school supplies",
        listing: { price: "50", listingKind: "wanted" },
        hoursAgo: 30,
      },
      {
        drawing: "lamp",
        name: "Desk lamp",
        text: "Adjustable desk lamp with a warm LED bulb. Works perfectly, just redecorating.",
        category: "home decor",
        listing: { price: "18", priceTerms: "offers", condition: "like_new" },
        hoursAgo: 3,
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
    avatarColours: ["#2193b0", "#6dd5ed"],
    listings: [
      {
        drawing: "bike",
        name: "Road bike, 54 cm",
        text: "Aluminium road bike, 54 cm frame, 18 speeds. New tyres and chain in September.\nGreat for getting across campus fast.",
        category: "sports & outdoors",
        listing: { price: "220", priceTerms: "offers", condition: "good" },
        hoursAgo: 100,
      },
      {
        drawing: "headphones",
        name: "Noise-cancelling headphones",
        text: "Over-ear noise-cancelling headphones, 30 h battery, case and cable included.",
        category: "audio & speakers",
        listing: { price: "90", priceTerms: "firm", condition: "like_new" },
        hoursAgo: 80,
        soldHoursAgo: 40,
      },
      {
        drawing: "tickets",
        name: "2 game tickets",
        text: "Two tickets for Saturday's home game, section 14, row F.\nFace value, meet at the union.",
        category: "tickets",
        listing: { price: "35", priceTerms: "firm", condition: "new" },
        hoursAgo: 50,
      },
      {
        drawing: "keyboard",
        name: "Mechanical keyboard",
        text: "Mechanical keyboard, tactile switches, white keycaps. USB-C cable included.",
        category: "computers & accessories",
        listing: { price: "45", priceTerms: "offers", condition: "good" },
        hoursAgo: 20,
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
    avatarColours: ["#11998e", "#38ef7d"],
    listings: [
      {
        drawing: "fridge",
        name: "Mini fridge",
        text: "Mini fridge, 3.1 cu ft, works perfectly and fits under a dorm desk.",
        category: "household",
        listing: { price: "50", priceTerms: "firm", condition: "good" },
        hoursAgo: 96,
      },
      {
        drawing: "rice-cooker",
        name: "Rice cooker",
        text: "6-cup rice cooker with steamer basket. Used twice, moving out.",
        category: "kitchen & dining",
        listing: { price: "15", priceTerms: "offers", condition: "like_new" },
        hoursAgo: 60,
      },
      {
        drawing: "guitar",
        name: "Acoustic guitar",
        text: "Acoustic guitar, full size, with soft case and a spare set of strings. A few scratches, sounds great.",
        category: "musical instruments",
        listing: { price: "120", priceTerms: "offers", condition: "fair" },
        hoursAgo: 26,
      },
      {
        drawing: "plant",
        name: "Monstera",
        text: "Free monstera in a terracotta pot to a good home. Pick up in West Campus this week.",
        category: "home decor",
        listing: { priceTerms: "free", condition: "good" },
        hoursAgo: 5,
      },
    ],
  },
];

/** A conversation between two OU demo students about Marcus's bike, oldest message first. */
export const demoConversation: {
  about: DemoDrawing;
  messages: { from: string; hoursAgo: number; text: string }[];
} = {
  about: "bike",
  messages: [
    {
      from: "oliviam",
      hoursAgo: 28,
      text: "Hi Marcus! Is the road bike still available? I could come by Thursday after 4.",
    },
    {
      from: "marcusj",
      hoursAgo: 27,
      text: "Hi Olivia, yes it is. Thursday works, I'm at the bike racks by the union.",
    },
    { from: "oliviam", hoursAgo: 26, text: "Perfect, see you at 4:30. Would you take $200?" },
    { from: "marcusj", hoursAgo: 25, text: "Deal at $200. Bring a light if you're riding it home!" },
  ],
};

/** The demo students join a week before the seed runs, so their listings have room for a few days of ages. */
export const JOINED_HOURS_AGO = 7 * 24;

/**
 * Decision 0610: the demo's meetup spots, two or three on OU and UT. Demo data only, seeded with
 * the demo students into an empty database; on a real site an operator enters a campus's spots
 * on the console, and none is ever invented. Each says it is a demo spot.
 */
export const DEMO_MEETUP_SPOTS: readonly {
  campusId: string;
  name: string;
  kind: "police" | "library" | "union" | "other";
  address: string;
  hours: string;
  rules: string;
}[] = [
  {
    campusId: "ou",
    name: "OU Police Department safe exchange zone",
    kind: "police",
    address: "1122 Elm Ave, Norman, OK 73072",
    hours: "Open 24 hours",
    rules: "Meet in the marked spaces of the front lot, under the cameras. Demo spot.",
  },
  {
    campusId: "ou",
    name: "Bizzell Memorial Library, main entrance",
    kind: "library",
    address: "401 W Brooks St, Norman, OK 73019",
    hours: "Mon–Thu 7:30 AM – 2 AM, Fri 7:30 AM – 6 PM",
    rules: "Meet inside the lobby, not in the stacks. Demo spot.",
  },
  {
    campusId: "ou",
    name: "Oklahoma Memorial Union, food court",
    kind: "union",
    address: "900 Asp Ave, Norman, OK 73019",
    hours: "Daily 7 AM – 11 PM",
    rules: "Busy at lunch; pick a table near the entrance. Demo spot.",
  },
  {
    campusId: "ut",
    name: "UT Police Department safe exchange zone",
    kind: "police",
    address: "2201 Robert Dedman Dr, Austin, TX 78712",
    hours: "Open 24 hours",
    rules: "Meet in the lobby during the day, the marked lot after dark. Demo spot.",
  },
  {
    campusId: "ut",
    name: "Perry-Castañeda Library, first floor",
    kind: "library",
    address: "101 E 21st St, Austin, TX 78712",
    hours: "Sun–Thu 24 hours, Fri–Sat 7 AM – 10 PM",
    rules: "Bring your UT ID to get in after hours. Demo spot.",
  },
];
