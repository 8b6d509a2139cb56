import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import { campusIdForHost, campusOrigin, getCampus, isSchoolEmailDomain, listCampuses } from "./campuses";
import { CampusDirectory } from "./directory";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe("campuses", () => {
  it("seeds the fifteen communities with their school domains", async () => {
    const all = await listCampuses(t.ctx.db);
    expect(all).toHaveLength(15);
    const ut = await getCampus(t.ctx.db, "ut");
    expect(ut?.name).toBe("UT");
    expect(ut?.domains).toContain("utexas.edu");
    const generic = await getCampus(t.ctx.db, "www");
    expect(generic?.generic).toBe(true);
    expect(generic?.domains).toEqual([]);
  });

  it("resolves the campus from the host name (CONTRACT.md)", () => {
    expect(campusIdForHost("localhost:3000", {})).toBe("ou");
    expect(campusIdForHost("127.0.0.1:3000", {})).toBe("ou");
    expect(campusIdForHost("ou.localhost:3000", {})).toBe("ou");
    expect(campusIdForHost("www.localhost:3000", {})).toBe("www");
    expect(campusIdForHost("UCLA.localhost", {})).toBe("ucla");
    expect(campusIdForHost("nowhere.localhost:3000", {})).toBe("ou");
    expect(campusIdForHost("utbuysell.com", { ut: "utbuysell.com" })).toBe("ut");
    expect(campusIdForHost("www.utbuysell.com", { ut: "utbuysell.com" })).toBe("ut");
    expect(campusIdForHost(undefined, {})).toBe("ou");
  });

  it("builds each campus's origin for links", () => {
    const local = {
      productionHosts: {},
      requestOrigin: new URL("http://localhost:3000/home"),
      publicUrl: null,
    };
    expect(campusOrigin("ut", local)).toBe("http://ut.localhost:3000");
    expect(campusOrigin("ut", { ...local, productionHosts: { ut: "utbuysell.com" } })).toBe(
      "https://utbuysell.com",
    );
  });

  it("accepts school e-mails on a campus domain or its subdomains only", () => {
    expect(isSchoolEmailDomain("a@ou.edu", ["ou.edu"])).toBe(true);
    expect(isSchoolEmailDomain("a@cs.ou.edu", ["ou.edu"])).toBe(true);
    expect(isSchoolEmailDomain("a@notou.edu", ["ou.edu"])).toBe(false);
    expect(isSchoolEmailDomain("a@ou.edu.evil.com", ["ou.edu"])).toBe(false);
    expect(isSchoolEmailDomain("no-at-sign", ["ou.edu"])).toBe(false);
  });

  it("serves every request its campus from memory", async () => {
    const directory = new CampusDirectory(t.ctx.db, {});
    await directory.refresh();
    expect(directory.forHost("smu.localhost:3000").name).toBe("SMU");
    expect(directory.all()).toHaveLength(15);
  });
});
