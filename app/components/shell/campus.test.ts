import { describe, expect, it } from "vitest";
import campuses from "~/server/campuses/campuses.json";
import { campusBrand, campusLocation, pageTitle, searchPlaceholder, socialHandle, socialUrl } from "./campus";

const ut = { name: "UT", generic: false };
const generic = { name: "Campus Buy Sell", generic: true };

describe("campus names", () => {
  it("builds the search placeholder of spec 1 §1", () => {
    expect(searchPlaceholder(ut)).toBe("Search UT Buy / Sell");
    expect(searchPlaceholder({ name: "OU", generic: false })).toBe("Search OU Buy / Sell");
  });

  it("names the social account after the campus in lower case", () => {
    expect(socialHandle({ name: "OU", generic: false })).toBe("oubuysell");
    expect(socialHandle({ name: "OKState", generic: false })).toBe("okstatebuysell");
    expect(socialUrl(ut)).toBe("https://www.instagram.com/utbuysell/");
    expect(socialHandle(generic)).toBe("campusbuysell");
  });

  it("gives every seeded campus a handle made only of letters and digits", () => {
    for (const campus of campuses) {
      expect(socialHandle({ name: campus.name, generic: campus.generic ?? false })).toMatch(
        /^[a-z0-9]+buysell$/,
      );
    }
  });

  it("titles pages with the campus brand", () => {
    expect(pageTitle("Home", ut)).toBe("Home | UT Buy / Sell");
    expect(pageTitle("About", generic)).toBe("About | Campus Buy Sell");
    expect(pageTitle(null, ut)).toBe("UT Buy / Sell");
    expect(pageTitle("Error 404", null)).toBe("Error 404 | Campus Buy Sell");
    expect(campusBrand(generic)).toBe("Campus Buy Sell");
  });

  it("writes the campus location from what is known", () => {
    expect(campusLocation({ city: "Austin", state: "TX" })).toBe("Austin, TX");
    expect(campusLocation({ city: "Stanford", state: null })).toBe("Stanford");
    expect(campusLocation({ city: null, state: null })).toBeNull();
  });
});
