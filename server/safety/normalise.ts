/**
 * The text the safety rules read (decision 0651): what a person sees, not the bytes they typed.
 * Compatibility forms folded (NFKC: full-width letters, ligatures), case folded, accents dropped,
 * the Cyrillic and Greek letters that look Latin mapped to the Latin ones, and the invisible
 * characters removed, so 'Ζеllе' and 'ze\u200blle' read 'zelle'. Spacing tricks ('z e l l e',
 * 'ven.mo', 'v-e-n-m-o') are undone by the matcher, which compares terms with runs of words
 * joined (matcher.ts), never by gluing the text here: joining ordinary words would make false hits.
 */

/** Zero-width and other invisible characters (soft hyphen, joiners, variation selectors, fillers). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Combining marks left after NFD (accents), dropped so 'vénmo' reads 'venmo'. */
const COMBINING = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

/**
 * Letters of other scripts that look like Latin ones (Unicode's confusables, the lower-case
 * Cyrillic and Greek ones people use to dodge filters), after case folding.
 */
const CONFUSABLES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: "a",
  в: "b",
  с: "c",
  ԁ: "d",
  е: "e",
  ё: "e",
  һ: "h",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  ӏ: "l",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  ԛ: "q",
  г: "r",
  ѕ: "s",
  т: "t",
  ц: "u",
  ѵ: "v",
  ԝ: "w",
  х: "x",
  у: "y",
  ү: "y",
  // Greek
  α: "a",
  β: "b",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  μ: "u",
  ν: "v",
  ο: "o",
  ρ: "p",
  σ: "o",
  ς: "c",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  ζ: "z",
  // Latin look-alikes outside ASCII that NFKC keeps
  ı: "i",
  ȷ: "j",
  ɡ: "g",
  ɑ: "a",
  ꞵ: "b",
  ʋ: "v",
};

const CONFUSABLE_CHARACTERS = new RegExp(`[${Object.keys(CONFUSABLES).join("")}]`, "g");

/**
 * The safety rules' reading of a text: NFKC, lower case, no accents, no invisible characters,
 * Latin look-alikes as Latin. Length is kept within a few characters of the input (no expansion
 * beyond what NFKC does), so the work stays linear in the message.
 */
export function normaliseForSafety(text: string): string {
  // Plain ASCII has nothing to fold but case (most messages: the long path costs three passes).
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(INVISIBLE, "")
    .normalize("NFD")
    .replace(COMBINING, "")
    .replace(CONFUSABLE_CHARACTERS, (character) => CONFUSABLES[character] ?? character)
    .normalize("NFC");
}

const ASCII = /^[\x20-\x7e\t\n\r]*$/;

/** A word of the normalised text with where it starts in that text. */
export interface Token {
  text: string;
  start: number;
}

/**
 * The words of a normalised text: runs of letters and digits, each with where it starts (the
 * matcher reads what separates them). A '$' after a letter is read as 's' ('ca$h app'); a '$'
 * before digits stays a price. One pass over the characters.
 */
export function tokenise(normalised: string): Token[] {
  const tokens: Token[] = [];
  let word = "";
  let start = 0;
  for (let index = 0; index < normalised.length; index++) {
    const code = normalised.charCodeAt(index);
    const letter = code >= 97 && code <= 122;
    const digit = code >= 48 && code <= 57;
    if (letter || digit) {
      if (word === "") start = index;
      word += normalised[index];
      continue;
    }
    if (code === 36 && word !== "" && /[a-z]/.test(word[word.length - 1] ?? "")) {
      const after = normalised.charCodeAt(index + 1);
      if (!(after >= 48 && after <= 57)) {
        word += "s";
        continue;
      }
    }
    if (word !== "") tokens.push({ text: word, start });
    word = "";
  }
  if (word !== "") tokens.push({ text: word, start });
  return tokens;
}
