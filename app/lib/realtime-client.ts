/**
 * The browser side of the realtime layer (decision 0212): ONE event stream per
 * browser and signed-in user, shared by its tabs. The tab holding the Web Lock
 * `cbs-realtime:{userId}` reads `GET /events` and forwards each event to the other tabs over a
 * BroadcastChannel; when it closes, the next tab takes the lock and resumes from the last
 * number it saw. Every tab drops what it already had by sequence number.
 *
 * The stream is read with fetch rather than EventSource: EventSource has no listener for every
 * event type (each `event:` name needs its own), it cannot send Last-Event-ID on a connect of
 * our own, and it hides a refusal's status (401, 429) behind a bare 'error'.
 */

export interface LiveEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

export type LiveListener = (event: LiveEvent) => void;

/** server/http/endpoints/event-stream.ts EVENT_STREAM_PATH (not imported: that module is server-only). */
export const EVENT_STREAM_URL = "/events";

/** Events a leader keeps to catch up a tab that opened after them. */
const RECENT_EVENTS = 200;
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

type ChannelMessage =
  | { kind: "event"; event: LiveEvent }
  | { kind: "reset"; seq: number; to?: string }
  | { kind: "hello"; from: string; after: number }
  | { kind: "replay"; to: string; events: LiveEvent[] };

export interface SseFrame {
  id: string | null;
  event: string;
  data: string;
}

/** Splits server-sent-event text (as it arrives, in any chunks) into frames; comments are dropped. */
export class SseParser {
  private buffer = "";

  push(chunk: string): SseFrame[] {
    this.buffer += chunk.replace(/\r\n?/g, "\n");
    const frames: SseFrame[] = [];
    for (let split = this.buffer.indexOf("\n\n"); split >= 0; split = this.buffer.indexOf("\n\n")) {
      const block = this.buffer.slice(0, split);
      this.buffer = this.buffer.slice(split + 2);
      let id: string | null = null;
      let event = "message";
      const data: string[] = [];
      let any = false;
      for (const line of block.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") id = value;
        else if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else continue;
        any = true;
      }
      if (any && data.length > 0) frames.push({ id, event, data: data.join("\n") });
    }
    return frames;
  }
}

/** What a frame of our stream means: an event, a reset to a number, or the end of this connection. */
export function readFrame(frame: SseFrame): LiveEvent | { reset: number } | { refused: string } | null {
  const seq = frame.id !== null && /^\d+$/.test(frame.id) ? Number(frame.id) : null;
  if (frame.event === "reset") return seq === null ? null : { reset: seq };
  if (frame.event === "refused" || frame.event === "unavailable") return { refused: frame.event };
  if (seq === null) return null;
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(frame.data);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
      data = parsed as Record<string, unknown>;
  } catch {
    // An event whose data is not ours to read still moves the number on.
  }
  return { seq, type: frame.event, data };
}

export class RealtimeClient {
  private lastSeq: number;
  private readonly listeners = new Set<LiveListener>();
  private readonly resetListeners = new Set<(seq: number) => void>();
  private readonly recent: LiveEvent[] = [];
  private readonly tabId = Math.random().toString(36).slice(2);
  private channel: BroadcastChannel | null = null;
  private readonly stopController = new AbortController();
  private streamController: AbortController | null = null;
  /** 'leader' while this tab reads the stream; for tests and diagnostics. */
  role: "leader" | "follower" | "stopped" = "follower";

  constructor(
    private readonly userId: string,
    startSeq: number,
    private readonly onRole?: (role: RealtimeClient["role"]) => void,
  ) {
    this.lastSeq = startSeq;
  }

  get seq(): number {
    return this.lastSeq;
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onReset(listener: (seq: number) => void): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  start(): void {
    const name = `cbs-realtime:${this.userId}`;
    if (typeof BroadcastChannel !== "undefined") {
      this.channel = new BroadcastChannel(name);
      this.channel.onmessage = (message: MessageEvent<ChannelMessage>) => this.fromChannel(message.data);
      // A leader already reading sends what this page may have missed while it loaded.
      this.post({ kind: "hello", from: this.tabId, after: this.lastSeq });
    }
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    if (locks && this.channel) {
      locks
        .request(name, { signal: this.stopController.signal }, () => this.lead())
        .catch(() => {
          // Aborted because this tab stopped before it became the leader.
        });
    } else {
      // No Web Locks (or no BroadcastChannel): this tab reads its own stream.
      void this.lead();
    }
  }

  stop(): void {
    this.role = "stopped";
    this.stopController.abort();
    this.streamController?.abort();
    this.channel?.close();
    this.channel = null;
    this.listeners.clear();
    this.resetListeners.clear();
  }

  private get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  private post(message: ChannelMessage): void {
    this.channel?.postMessage(message);
  }

  private deliver(event: LiveEvent): boolean {
    if (event.seq <= this.lastSeq) return false;
    this.lastSeq = event.seq;
    this.recent.push(event);
    if (this.recent.length > RECENT_EVENTS) this.recent.shift();
    for (const listener of [...this.listeners]) listener(event);
    return true;
  }

  private reset(seq: number): void {
    this.lastSeq = seq;
    this.recent.length = 0;
    for (const listener of [...this.resetListeners]) listener(seq);
  }

  private fromChannel(message: ChannelMessage): void {
    if (this.stopped) return;
    switch (message.kind) {
      case "event":
        this.deliver(message.event);
        break;
      case "reset":
        if (message.to === undefined || message.to === this.tabId) this.reset(message.seq);
        break;
      case "replay":
        if (message.to === this.tabId) for (const event of message.events) this.deliver(event);
        break;
      case "hello": {
        if (this.role !== "leader" || this.lastSeq <= message.after) break;
        const missed = this.recent.filter((event) => event.seq > message.after);
        if (missed[0]?.seq === message.after + 1) {
          this.post({ kind: "replay", to: message.from, events: missed });
        } else {
          // More than this tab kept: that page reloads its data.
          this.post({ kind: "reset", seq: this.lastSeq, to: message.from });
        }
        break;
      }
    }
  }

  /** Runs while this tab holds the lock: reads the stream, reconnecting with back-off. */
  private async lead(): Promise<void> {
    if (this.stopped) return;
    this.role = "leader";
    this.onRole?.("leader");
    let delay = FIRST_RETRY_MS;
    while (!this.stopped) {
      const received = await this.readStream();
      if (this.stopped) break;
      if (received) delay = FIRST_RETRY_MS;
      // Jitter: after a server restart, its browsers do not all come back in the same instant.
      await this.sleep(delay / 2 + Math.random() * delay);
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.stopController.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** One connection; true when it was accepted (the back-off starts over). */
  private async readStream(): Promise<boolean> {
    const controller = new AbortController();
    this.streamController = controller;
    let accepted = false;
    try {
      const response = await fetch(EVENT_STREAM_URL, {
        headers: { accept: "text/event-stream", "last-event-id": String(this.lastSeq) },
        credentials: "same-origin",
        cache: "no-store",
        signal: controller.signal,
      });
      if (!response.ok || !response.body) return false;
      accepted = true;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return true;
        for (const frame of parser.push(value)) {
          const meaning = readFrame(frame);
          if (!meaning) continue;
          if ("refused" in meaning) {
            controller.abort();
            return false;
          }
          if ("reset" in meaning) {
            this.reset(meaning.reset);
            this.post({ kind: "reset", seq: meaning.reset });
          } else if (this.deliver(meaning)) {
            this.post({ kind: "event", event: meaning });
          }
        }
      }
    } catch {
      // A dropped connection, or stop(): the loop decides.
      return accepted;
    } finally {
      this.streamController = null;
    }
  }
}
