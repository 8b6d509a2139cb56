import http from "node:http";

/**
 * A small server-sent-events reader for Node (tests, the two-process test and bench/realtime.ts):
 * the parts of the EventSource format our stream sends (`id:`, `event:`, `data:`, `retry:`,
 * `:` comments), over one plain HTTP request with no agent, so thousands can be open at once.
 */
export interface SseFrame {
  id: string | null;
  event: string;
  data: string;
}

export interface SseStream {
  /** The response's status and content type, once they arrived. */
  readonly opened: Promise<{ status: number; contentType: string; body: string }>;
  /** Every event frame so far, and the comments (heartbeats). */
  readonly frames: SseFrame[];
  readonly comments: string[];
  /** Resolves when `predicate` holds for what arrived (checked on each chunk); rejects if the stream ends first. */
  until(predicate: (frames: SseFrame[], comments: string[]) => boolean): Promise<void>;
  /** Resolves once the server ended the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

export function openSse(
  url: string,
  options: { cookie?: string; lastEventId?: string; host?: string; onFrame?: (frame: SseFrame) => void } = {},
): SseStream {
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  const waiters: {
    predicate: (frames: SseFrame[], comments: string[]) => boolean;
    resolve(): void;
    reject(e: Error): void;
  }[] = [];
  let finished = false;
  let endResolve: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    endResolve = resolve;
  });
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.predicate(frames, comments)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    for (const waiter of waiters.splice(0)) waiter.reject(new Error("the stream ended"));
    endResolve();
  };
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.lastEventId) headers["last-event-id"] = options.lastEventId;
  if (options.host) headers.host = options.host;
  const request = http.get(url, { headers, agent: false });
  const opened = new Promise<{ status: number; contentType: string; body: string }>((resolve, reject) => {
    request.on("error", (error) => {
      finish();
      reject(error);
    });
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const contentType = String(response.headers["content-type"] ?? "");
      if (!contentType.startsWith("text/event-stream")) {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => {
          finish();
          resolve({ status, contentType, body });
        });
        return;
      }
      resolve({ status, contentType, body: "" });
      response.setEncoding("utf8");
      let buffer = "";
      response.on("data", (chunk: string) => {
        buffer += chunk;
        for (let split = buffer.indexOf("\n\n"); split >= 0; split = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          let id: string | null = null;
          let event = "message";
          const data: string[] = [];
          let any = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else if (line.startsWith("id:")) {
              id = line.slice(3).trim();
              any = true;
            } else if (line.startsWith("event:")) {
              event = line.slice(6).trim();
              any = true;
            } else if (line.startsWith("data:")) {
              data.push(line.slice(5).trimStart());
              any = true;
            }
          }
          if (any) {
            const frame = { id, event, data: data.join("\n") };
            frames.push(frame);
            options.onFrame?.(frame);
          }
        }
        check();
      });
      response.on("end", finish);
      response.on("close", finish);
    });
  });
  return {
    opened,
    frames,
    comments,
    ended,
    until(predicate) {
      if (predicate(frames, comments)) return Promise.resolve();
      if (finished) return Promise.reject(new Error("the stream ended"));
      return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
    close() {
      request.destroy();
      finish();
    },
  };
}
