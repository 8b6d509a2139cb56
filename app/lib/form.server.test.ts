import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FORM_MESSAGES, readForm, readIntent } from "./form.server";

async function refusal(request: Request): Promise<{ status: number; message: unknown }> {
  try {
    await readForm(request);
  } catch (thrown) {
    const response = thrown as { init?: ResponseInit | null; data?: { message?: unknown } };
    return { status: response.init?.status ?? 0, message: response.data?.message };
  }
  throw new Error("the form was read");
}

describe("readForm (docs/product/outages-and-errors.md)", () => {
  it("reads a form", async () => {
    const form = await readForm(
      new Request("http://localhost/x", {
        method: "POST",
        body: new URLSearchParams({ intent: "toggle-save" }),
      }),
    );
    expect(form.get("intent")).toBe("toggle-save");
  });

  it("answers a broken multipart body with 400 and a message", async () => {
    const request = new Request("http://localhost/x", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=abc" },
      body: '--abc\r\nContent-Disposition: form-data; name="intent"\r\n\r\ntoggle-sa',
    });
    expect(await refusal(request)).toEqual({ status: 400, message: FORM_MESSAGES.unreadable });
  });

  it("answers a NUL character in any field with 400 and a message", async () => {
    const request = new Request("http://localhost/x", {
      method: "POST",
      body: new URLSearchParams({ intent: "save-bio", bio: "hello\u0000world" }),
    });
    expect(await refusal(request)).toEqual({ status: 400, message: FORM_MESSAGES.invalidCharacters });
  });
});

describe("readIntent (decision 0145)", () => {
  const Intent = z.enum(["verify-pin", "resend-pin"]).default("verify-pin");
  const form = (fields: Record<string, string>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    return body;
  };

  it("reads one of the page's intents, and the main form's when none is sent", () => {
    expect(readIntent(form({ intent: "resend-pin" }), Intent)).toBe("resend-pin");
    expect(readIntent(form({ code: "1234" }), Intent)).toBe("verify-pin");
  });

  it("refuses any other intent with 400 and a message", () => {
    let thrown: unknown;
    try {
      readIntent(form({ intent: "delete-account" }), Intent);
    } catch (error) {
      thrown = error;
    }
    const refusal = thrown as { init?: ResponseInit | null; data?: { message?: unknown } };
    expect(refusal.init?.status).toBe(400);
    expect(refusal.data?.message).toBe(FORM_MESSAGES.unknownIntent);
  });
});
