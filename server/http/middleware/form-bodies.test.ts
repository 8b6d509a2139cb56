import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFormContentType, refuseNonFormWrites, UNSUPPORTED_BODY_MESSAGE } from "./form-bodies";

let base = "";
let close: () => void = () => {};
let reached = 0;

beforeAll(async () => {
  const app = express();
  app.use(refuseNonFormWrites());
  app.all("/action", (_req, res) => {
    reached += 1;
    res.send("read");
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("writes that are not forms (docs/product/outages-and-errors.md)", () => {
  it.each([
    ["application/json", '{"intent":"toggle-save"}'],
    ["text/plain", "intent=toggle-save"],
    ["multipart/form-data", "--x\r\n"],
    ["multipart/form-data; boundary=", "--x\r\n"],
    ["application/octet-stream", "\u0001\u0002"],
  ])("refuses %s with 415 before the action reads it", async (contentType, body) => {
    const before = reached;
    const response = await fetch(`${base}/action`, {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    });
    expect(response.status).toBe(415);
    expect(await response.text()).toBe(UNSUPPORTED_BODY_MESSAGE);
    expect(reached).toBe(before);
  });

  it("refuses a write with no body type at all", async () => {
    const response = await fetch(`${base}/action`, { method: "POST" });
    expect(response.status).toBe(415);
  });

  it("lets forms and reads through", async () => {
    const form = new FormData();
    form.set("intent", "toggle-save");
    expect((await fetch(`${base}/action`, { method: "POST", body: form })).status).toBe(200);
    const urlencoded = new URLSearchParams({ intent: "toggle-save" });
    expect((await fetch(`${base}/action`, { method: "POST", body: urlencoded })).status).toBe(200);
    expect((await fetch(`${base}/action`)).status).toBe(200);
  });

  it("knows a form's content type however it is spelled", () => {
    expect(isFormContentType("application/x-www-form-urlencoded;charset=UTF-8")).toBe(true);
    expect(isFormContentType("Multipart/Form-Data; charset=utf-8; boundary=----WebKitFormBoundaryA1")).toBe(
      true,
    );
    expect(isFormContentType('multipart/form-data; boundary="quoted boundary"')).toBe(true);
    expect(isFormContentType("application/x-www-form-urlencodedX")).toBe(false);
    expect(isFormContentType(undefined)).toBe(false);
  });
});
