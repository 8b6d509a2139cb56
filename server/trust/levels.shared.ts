/**
 * Trust levels (decision 0660, docs/product/trust-levels.md): their names, what each level allows
 * where the product gates by level, the thresholds that raise a student from one to the next, the
 * refusal texts and 'what lifts it'. Pure: the server's gates and recount, the settings page and
 * the console's student page read the same words and numbers.
 */

export type TrustLevel = 0 | 1 | 2 | 3;

export const TRUST_LEVELS: readonly TrustLevel[] = [0, 1, 2, 3];

export const TRUST_LEVEL_NAMES: Record<TrustLevel, string> = {
  0: "New",
  1: "Basic",
  2: "Member",
  3: "Regular",
};

/** Decision 0660: new conversations a student may start in a rolling 24 hours, by level. */
export const CONVERSATIONS_PER_DAY: Record<TrustLevel, number> = { 0: 10, 1: 30, 2: 60, 3: 100 };

/** Decision 0660: listings with a price above Free that are not sold, by level. */
export const ACTIVE_PRICED_LISTINGS: Record<TrustLevel, number> = { 0: 20, 1: 50, 2: 100, 3: 200 };

/**
 * Decision 0662: what one report weighs, multiplied by the level of its reporter (a new account
 * counts half; an accurate Regular still less than two people).
 */
export const REPORT_WEIGHT_FACTOR: Record<TrustLevel, number> = { 0: 0.5, 1: 1, 2: 1, 3: 1.2 };

/**
 * Decision 0662: a New author's reported post or comment is hidden at two thirds of the campus's
 * threshold (3 → 2); the floor of distinct reporters stays.
 */
export const NEW_AUTHOR_HIDE_FACTOR = 2 / 3;

/**
 * Decision 0660: the thresholds. Every level needs a verified e-mail and school address and an
 * account that is not banned. Strikes count when not overruled.
 */
export const TRUST_THRESHOLDS = {
  basic: { days: 7, trades: 1 },
  member: { days: 30, trades: 3, strikeFreeDays: 90 },
  regular: { days: 90, trades: 10, reviews: 3, rating: 4.5, strikeFreeDays: 365 },
} as const;

/** The facts a level is computed from (read by server/trust/reasons.ts; the recount reads the same). */
export interface TrustFacts {
  verified: boolean;
  schoolVerified: boolean;
  profileSetUp: boolean;
  banned: boolean;
  /** Whole days since the account was created, by the clock. */
  ageDays: number;
  tradesCompleted: number;
  reviewCount: number;
  /** Null below three counted reviews (decision 0616). */
  rating: number | null;
  /** Days since the newest strike that was not overruled; null without any. */
  daysSinceStrike: number | null;
}

function strikeFreeFor(facts: TrustFacts, days: number): boolean {
  return facts.daysSinceStrike === null || facts.daysSinceStrike >= days;
}

/** The conditions of one level, each with whether the facts meet it: the 'reasons' shown. */
export interface TrustCondition {
  text: string;
  met: boolean;
}

/** What the student needs for `level`, in words, each marked met or not. Level 0 needs nothing. */
export function conditionsFor(level: TrustLevel, facts: TrustFacts): TrustCondition[] {
  const base: TrustCondition[] = [
    { text: "E-mail and school address verified", met: facts.verified && facts.schoolVerified },
  ];
  if (level === 0) return [];
  if (level === 1) {
    const { days, trades } = TRUST_THRESHOLDS.basic;
    return [
      ...base,
      {
        text: `A first completed trade or ${days} days on Campus Buy Sell`,
        met: facts.tradesCompleted >= trades || facts.ageDays >= days,
      },
    ];
  }
  if (level === 2) {
    const { days, trades, strikeFreeDays } = TRUST_THRESHOLDS.member;
    return [
      ...base,
      { text: "Profile set up", met: facts.profileSetUp },
      { text: `${days} days on Campus Buy Sell`, met: facts.ageDays >= days },
      { text: `${trades} completed trades`, met: facts.tradesCompleted >= trades },
      { text: `No strike in the last ${strikeFreeDays} days`, met: strikeFreeFor(facts, strikeFreeDays) },
    ];
  }
  const { days, trades, reviews, rating, strikeFreeDays } = TRUST_THRESHOLDS.regular;
  return [
    ...base,
    { text: "Profile set up", met: facts.profileSetUp },
    { text: `${days} days on Campus Buy Sell`, met: facts.ageDays >= days },
    { text: `${trades} completed trades`, met: facts.tradesCompleted >= trades },
    {
      text: `A rating of ${rating} or more from at least ${reviews} reviews`,
      met: facts.reviewCount >= reviews && facts.rating !== null && facts.rating >= rating,
    },
    { text: `No strike in the last ${strikeFreeDays} days`, met: strikeFreeFor(facts, strikeFreeDays) },
  ];
}

/**
 * Decision 0660: the level the facts give. The recount statement (server/trust/recount.ts) says
 * the same in SQL; a test holds the two together.
 */
export function levelFromFacts(facts: TrustFacts): TrustLevel {
  if (facts.banned) return 0;
  for (const level of [3, 2, 1] as const) {
    if (conditionsFor(level, facts).every((condition) => condition.met)) return level;
  }
  return 0;
}

/** 'What lifts it': the next level's conditions not yet met, in words; null at Regular. */
export function whatLifts(level: TrustLevel): string | null {
  switch (level) {
    case 0:
      return `This lifts after your first completed trade or ${TRUST_THRESHOLDS.basic.days} days.`;
    case 1: {
      const { days, trades, strikeFreeDays } = TRUST_THRESHOLDS.member;
      return `This lifts after ${days} days and ${trades} completed trades, with your profile set up and no strike in ${strikeFreeDays} days.`;
    }
    case 2: {
      const { days, trades, reviews, rating } = TRUST_THRESHOLDS.regular;
      return `This lifts after ${days} days and ${trades} completed trades, with a rating of ${rating} or more from at least ${reviews} reviews.`;
    }
    default:
      return null;
  }
}

/** Who the level's limit speaks to: 'New accounts', 'Basic members'… */
function whoAt(level: TrustLevel): string {
  return level === 0 ? "New accounts" : `${TRUST_LEVEL_NAMES[level]} members`;
}

/**
 * Decision 0661: the refusal of an eleventh (31st, 61st, 101st) new conversation in 24 hours.
 * 'New accounts can start 10 conversations a day. This lifts after your first completed trade or 7 days.'
 */
export function conversationLimitMessage(level: TrustLevel): string {
  const limit = CONVERSATIONS_PER_DAY[level];
  return `${whoAt(level)} can start ${limit} conversations a day. ${whatLifts(level) ?? "Try again tomorrow."}`;
}

/** Decision 0661: the refusal of a priced listing over the level's number of active ones. */
export function pricedListingLimitMessage(level: TrustLevel): string {
  const limit = ACTIVE_PRICED_LISTINGS[level];
  return `${whoAt(level)} can have ${limit} priced listings for sale at once. Mark sold or delete one first. ${
    whatLifts(level) ?? ""
  }`.trim();
}
