import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

/** One message as the SMTP sink received it, decoded from its MIME parts. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower case. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every header by its lower-case name (List-Unsubscribe of notification e-mails, RFC 8058). */
  headers: Record<string, string>;
  receivedAt: string;
}

/**
 * A real SMTP server that keeps every message it accepts (docs/architecture.md
 * rule 10: end-to-end tests read mail from a real SMTP sink). Set
 * `rejecting` to answer every message with a temporary failure, like a mail
 * server that is having trouble.
 */
export interface SmtpSink {
  readonly port: number;
  /** For SMTP_URL / createSmtpTransport. */
  readonly url: string;
  readonly messages: ReceivedMail[];
  /** Messages the server refused while `rejecting` was on. */
  rejected: number;
  rejecting: boolean;
  close(): Promise<void>;
}

export async function startSmtpSink(options: { port?: number; host?: string } = {}): Promise<SmtpSink> {
  const host = options.host ?? "127.0.0.1";
  const messages: ReceivedMail[] = [];
  const state = { rejecting: false, rejected: 0 };

  const server = new SMTPServer({
    // A plain sink on loopback: no TLS upgrade, any (or no) login accepted.
    secure: false,
    hideSTARTTLS: true,
    authOptional: true,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "sink" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        if (state.rejecting) {
          state.rejected++;
          const error = Object.assign(new Error("Mailbox temporarily unavailable, try again later"), {
            responseCode: 451,
          });
          callback(error);
          return;
        }
        PostalMime.parse(Buffer.concat(chunks))
          .then((email) => {
            const envelopeFrom = session.envelope.mailFrom;
            messages.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              from: envelopeFrom ? envelopeFrom.address : "",
              subject: email.subject ?? "",
              text: email.text ?? "",
              html: email.html ?? "",
              headers: Object.fromEntries(
                email.headers.map((header) => [header.key.toLowerCase(), header.value]),
              ),
              receivedAt: new Date().toISOString(),
            });
            callback();
          })
          .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://${host}:${port}`,
    messages,
    get rejected() {
      return state.rejected;
    },
    set rejected(value: number) {
      state.rejected = value;
    },
    get rejecting() {
      return state.rejecting;
    },
    set rejecting(value: boolean) {
      state.rejecting = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Serves the sink's messages as JSON to the Playwright workers, which run in
 * other processes: GET /messages?to=<address> (oldest first).
 */
export async function startSinkApi(sink: SmtpSink, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sink.invalid");
    if (req.method === "GET" && url.pathname === "/messages") {
      const to = url.searchParams.get("to")?.toLowerCase();
      const found = to ? sink.messages.filter((mail) => mail.to.includes(to)) : sink.messages;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(found));
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
