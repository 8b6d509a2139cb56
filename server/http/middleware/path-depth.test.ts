import type http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PAGE_PATH_SEGMENTS, refuseDeepPaths } from "./path-depth";

// Decision 0400: an address deeper than any page never reaches React Router's route matching.

let server: http.Server;
let base: string;
const reached: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(refuseDeepPaths());
  app.all(/.*/, (req, res) => {
    reached.push(req.path);
    res.send("page");
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const deep = (segments: number) => "/a".repeat(segments);

describe("refuseDeepPaths", () => {
  it("passes every page's address, up to the limit", async () => {
    for (const path of [
      "/",
      "/home",
      "/post/2175878b-d0fe-eebb-654c-f675981d3906/boost/success",
      "/settings/account/verify_school_email",
      deep(MAX_PAGE_PATH_SEGMENTS),
      `${deep(MAX_PAGE_PATH_SEGMENTS)}.data`,
    ]) {
      const response = await fetch(`${base}${path}`, { redirect: "manual" });
      expect(response.status, path).toBe(200);
    }
  });

  it("sends a document deeper than any page to the not-found page, without reaching the router", async () => {
    reached.length = 0;
    const response = await fetch(`${base}${deep(7_000)}?q=1`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/404");
    const oneOver = await fetch(`${base}${deep(MAX_PAGE_PATH_SEGMENTS + 1)}`, { redirect: "manual" });
    expect(oneOver.headers.get("location")).toBe("/404");
    expect(reached).toEqual([]);
  });

  it("answers a deep data request or write with 404", async () => {
    reached.length = 0;
    const data = await fetch(`${base}${deep(50)}.data`, { redirect: "manual" });
    expect(data.status).toBe(404);
    expect(await data.text()).toBe("This page doesn't exist.");
    const write = await fetch(`${base}${deep(50)}`, { method: "POST", body: "x=1", redirect: "manual" });
    expect(write.status).toBe(404);
    expect(reached).toEqual([]);
  });

  it("counts segments, not slashes: repeated and trailing slashes add none", async () => {
    const path = `/home${"/".repeat(40)}`;
    const response = await fetch(`${base}${path}`, { redirect: "manual" });
    expect(response.status).toBe(200);
  });
});
