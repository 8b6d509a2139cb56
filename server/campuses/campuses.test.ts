import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-context";
import {
  campusIdForHost,
  campusOrigin,
  campusOrigins,
  getCampus,
  isSchoolEmailDomain,
  listCampuses,
} from "./campuses";
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

  it("resolves the campus from the host name (docs/contract.md)", () => {
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
    const local = { production: false, port: 3000, publicUrl: null, campusHosts: {} };
    expect(campusOrigin("ut", "localhost:3000", local)).toBe("http://ut.localhost:3000");
    expect(campusOrigin("ut", "localhost:3000", { ...local, campusHosts: { ut: "utbuysell.com" } })).toBe(
      "https://utbuysell.com",
    );
  });

  describe("origins of e-mailed links, from configuration only (decision 0110)", () => {
    const local = { production: false, port: 4230, publicUrl: null, campusHosts: {} };
    const deployed = {
      production: true,
      port: 3000,
      publicUrl: null,
      campusHosts: { ou: "oubuysell.com", ut: "utbuysell.com" },
    };
    const forged = [
      "evil.example",
      "evil.example:4230",
      "oubuysell.com.evil.example",
      "evil.localhost",
      "localhost.evil.example",
      "",
      "[::1]:4230",
    ];

    it("never puts a Host header the configuration does not name in a link, whatever the mode", () => {
      for (const config of [
        local,
        deployed,
        { ...local, production: true },
        { ...deployed, production: false },
        { ...local, publicUrl: "https://buysell.example.org" },
      ]) {
        for (const host of forged) {
          for (const campusId of ["ou", "ut", "www"]) {
            const origin = campusOrigin(campusId, host, config);
            expect(origin, `${campusId} ${host}`).not.toContain("evil");
            expect(campusOrigins(campusId, config)).toContain(origin);
          }
        }
      }
      expect(campusOrigin("ou", "evil.example", local)).toBe("http://localhost:4230");
      expect(campusOrigin("ou", "evil.example", deployed)).toBe("https://oubuysell.com");
    });

    it("keeps a student on the development host they are on, on the configured port", () => {
      expect(campusOrigin("ou", "localhost:4230", local)).toBe("http://localhost:4230");
      expect(campusOrigin("ou", "127.0.0.1:4230", local)).toBe("http://127.0.0.1:4230");
      expect(campusOrigin("ou", "ou.localhost:4230", local)).toBe("http://ou.localhost:4230");
      expect(campusOrigin("ut", "UT.localhost.", local)).toBe("http://ut.localhost:4230");
      expect(campusOrigin("www", "www.localhost:4230", local)).toBe("http://www.localhost:4230");
      // A port of the request's own never makes it into a link.
      expect(campusOrigin("ou", "localhost:6666", local)).toBe("http://localhost:4230");
      // Another campus's host: the campus's own.
      expect(campusOrigin("ut", "localhost:4230", local)).toBe("http://ut.localhost:4230");
      expect(campusOrigin("ou", "ut.localhost:4230", local)).toBe("http://localhost:4230");
    });

    it("uses the production hosts of CAMPUS_HOSTS, www. included, and only them in production", () => {
      expect(campusOrigin("ut", "utbuysell.com", deployed)).toBe("https://utbuysell.com");
      expect(campusOrigin("ut", "www.utbuysell.com", deployed)).toBe("https://www.utbuysell.com");
      expect(campusOrigin("ut", "oubuysell.com", deployed)).toBe("https://utbuysell.com");
      expect(campusOrigin("ou", "localhost:3000", deployed)).toBe("https://oubuysell.com");
      expect(campusOrigin("ut", "ut.localhost:3000", deployed)).toBe("https://utbuysell.com");
      // A campus without a configured host is reached on its development host only.
      expect(campusOrigin("smu", "evil.example", deployed)).toBe("http://smu.localhost:3000");
      // Outside production the development hosts stay usable beside the configured ones.
      expect(campusOrigin("ou", "localhost:3000", { ...deployed, production: false })).toBe(
        "http://localhost:3000",
      );
    });

    it("uses PUBLIC_URL for the campus its host serves", () => {
      const withPublicUrl = { ...deployed, publicUrl: "https://oubuysell.com:8443" };
      for (const host of ["oubuysell.com", "localhost:3000", "evil.example"]) {
        expect(campusOrigin("ou", host, withPublicUrl)).toBe("https://oubuysell.com:8443");
      }
      expect(campusOrigin("ut", "utbuysell.com", withPublicUrl)).toBe("https://utbuysell.com");
      const single = { ...local, publicUrl: "https://buysell.example.org" };
      expect(campusOrigin("ou", "evil.example", single)).toBe("https://buysell.example.org");
      expect(campusOrigin("ou", "localhost:4230", single)).toBe("https://buysell.example.org");
      expect(campusOrigin("ut", "evil.example", single)).toBe("http://ut.localhost:4230");
    });
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
