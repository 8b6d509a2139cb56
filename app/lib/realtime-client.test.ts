import { describe, expect, it } from "vitest";
import { readFrame, SseParser } from "./realtime-client";

// Decision 0212: the browser reads GET /events with fetch and this parser.

describe("SseParser", () => {
  it("splits frames across arbitrary chunks and drops comments and the retry field", () => {
    const parser = new SseParser();
    const text =
      'retry: 2000\n\n: heartbeat\n\nid: 3\nevent: chat\ndata: {"chatId":"c1"}\n\nid: 4\r\nevent: reset\r\ndata: {}\r\n\r\n';
    const frames = [];
    for (let n = 0; n < text.length; n += 7) frames.push(...parser.push(text.slice(n, n + 7)));
    expect(frames).toEqual([
      { id: "3", event: "chat", data: '{"chatId":"c1"}' },
      { id: "4", event: "reset", data: "{}" },
    ]);
  });
});

describe("readFrame", () => {
  it("reads events, resets and refusals, and ignores frames without a number", () => {
    expect(readFrame({ id: "3", event: "chat", data: '{"chatId":"c1"}' })).toEqual({
      seq: 3,
      type: "chat",
      data: { chatId: "c1" },
    });
    expect(readFrame({ id: "5", event: "badge", data: "not json" })).toEqual({
      seq: 5,
      type: "badge",
      data: {},
    });
    expect(readFrame({ id: "9", event: "reset", data: "{}" })).toEqual({ reset: 9 });
    expect(readFrame({ id: null, event: "refused", data: '{"reason":"user-limit"}' })).toEqual({
      refused: "refused",
    });
    expect(readFrame({ id: null, event: "chat", data: "{}" })).toBeNull();
    expect(readFrame({ id: "x", event: "reset", data: "{}" })).toBeNull();
  });
});
