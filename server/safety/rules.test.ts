import { describe, expect, it } from "vitest";
import { matchingRuleKeys } from "./check";
import { normaliseForSafety } from "./normalise";
import { BUILTIN_RULES } from "./rules";

/** docs/product/safety.md: each built-in rule with texts it catches and ordinary texts it leaves alone. */
const writer = { accountAgeHours: 24 * 30, ownDomains: ["campusbuysell.com", "ou.campusbuysell.com"] };
const chat = (text: string, facts = writer) => matchingRuleKeys(BUILTIN_RULES, text, "chat", facts);
const listing = (text: string) => matchingRuleKeys(BUILTIN_RULES, text, "listing", writer);

const CASES: Record<string, { scope: "chat" | "listing"; catches: string[]; leaves: string[] }> = {
  "verification-code": {
    scope: "chat",
    catches: [
      "what's the code Google sent you",
      "read me the 6 digit code",
      "it's a google voice thing, just confirm",
    ],
    leaves: [
      "Does the book include the access code?",
      "The code on the box says model 2023",
      "I write code in node.js",
    ],
  },
  "staff-impersonation": {
    scope: "chat",
    catches: [
      "This is Campus Buy Sell support",
      "CBS admin: your account will be suspended",
      "message from the security team",
    ],
    leaves: [
      "I work at the IT help desk in the library",
      "My team plays Saturday",
      "support for the desk legs is solid",
    ],
  },
  "shortener-link": {
    scope: "chat",
    catches: ["pics at bit.ly/abc", "https://tinyurl.com/x2", "see t.co/abc"],
    leaves: ["it's a bit lighter than mine", "tiny url? no idea"],
  },
  "lookalike-link": {
    scope: "chat",
    catches: ["claim at venmo-payments.net", "login at paypa1.com", "campusbuysell-help.com/verify"],
    leaves: ["my listing is at ou.campusbuysell.com/p/1", "pay at venmo.com when we meet"],
  },
  "chat-phone": {
    scope: "chat",
    catches: ["call 405-555-0123", "my cell is (405) 555 0123", "+44 20 7946 0958", "4 0 5 5 5 5 0 1 2 3"],
    leaves: ["$250 or best offer", "meet at 3:30", "CS 2334", "ISBN 978-0-13-468599-1", "room 1204 at 10:15"],
  },
  "chat-email": {
    scope: "chat",
    catches: ["mail me at sam@gmail.com", "sam dot lee at gmail"],
    leaves: ["I'll e-mail the professor", "@ the union at noon"],
  },
  "payment-first": {
    scope: "chat",
    catches: [
      "pls zelle $20 first to hold it",
      "venmo the deposit and it's yours",
      "pay in advance please",
      "paypal friends and family only",
    ],
    leaves: ["I can venmo you when we meet", "Zelle at pickup is fine", "first come first served, cash only"],
  },
  "gift-card": {
    scope: "chat",
    catches: ["I'll pay with a gift card", "buy a steam card and send the code"],
    leaves: ["is the starbucks gift card still available?", "I got it as a gift, card included"],
  },
  overpayment: {
    scope: "chat",
    catches: ["I overpaid, send back the difference", "I'll mail a cashier's check"],
    leaves: ["the difference between the editions is small", "I can pay the rest at pickup"],
  },
  "shipping-only": {
    scope: "chat",
    catches: ["I can only ship it", "I'm deployed overseas, my courier brings it"],
    leaves: ["can we meet on campus?", "I'm only free after 3"],
  },
  "listing-phone": {
    scope: "listing",
    catches: ["Call 405.555.0123"],
    leaves: ["$40 OBO, pick up at Couch"],
  },
  "listing-email": {
    scope: "listing",
    catches: ["sam.seller@ou.edu"],
    leaves: ["E-mail through the site chat"],
  },
  "listing-link": {
    scope: "listing",
    catches: ["photos on example.com", "www.desk-photos.org", "https://x.io/desk"],
    leaves: ["node.js book, e.g. for CS 2334", "i.e. the 3rd ed.", "fits a 5 ft. wall"],
  },
};

describe("each built-in rule", () => {
  it("has examples here", () => {
    expect(Object.keys(CASES).sort()).toEqual(
      BUILTIN_RULES.map((rule) => rule.key)
        .filter((key) => key !== "new-account-link")
        .sort(),
    );
  });
  for (const [key, { scope, catches, leaves }] of Object.entries(CASES)) {
    const check = scope === "chat" ? chat : listing;
    it.each(catches)(`${key} catches %j`, (text) => expect(check(text)).toContain(key));
    it.each(leaves)(`${key} leaves %j alone`, (text) => expect(check(text)).not.toContain(key));
  }

  it("new-account-link refuses any link from an account under 24 hours old, and only then", () => {
    expect(chat("photos at example.com", { ...writer, accountAgeHours: 23.9 })).toContain("new-account-link");
    expect(chat("photos at example.com", { ...writer, accountAgeHours: 24 })).not.toContain(
      "new-account-link",
    );
    expect(chat("node.js book, e.g. for CS 2334", { ...writer, accountAgeHours: 1 })).toEqual([]);
  });
});

describe("normalised text (spacing tricks, look-alike letters, invisible characters)", () => {
  it.each([
    "ZELLE me first",
    "z e l l e me first",
    "z.e.l.l.e me first",
    "ven.mo me first",
    "v-e-n-m-o me first",
    "v_e_n_m_o me first",
    "ｖｅｎｍｏ me first",
    "vеnmо me first", // Cyrillic е and о
    "ζelle me first", // Greek zeta
    "ve\u200bnmo me first",
    "ven\u00admo me first",
    "véñmo me first",
    "ca$h app me first",
    "cash.app me first",
    "c a s h a p p me first",
  ])("reads %j as payment first", (text) => {
    expect(chat(text)).toContain("payment-first");
  });

  it("does not glue ordinary words into terms", () => {
    expect(chat("I can pay when we meet, ven mo? no, cash")).toEqual([]);
    expect(chat("the a p p store card reader was first")).toEqual([]);
  });

  it("folds case, width, accents, look-alikes and invisible characters", () => {
    expect(normaliseForSafety("ＺΕLLЕ\u200d Vénmo")).toBe("zelle venmo");
  });
});
