import nodemailer from "nodemailer";
import type { Logger } from "../logger";

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on notification e-mails, RFC 8058). */
  headers?: Record<string, string>;
}

/** The mail seam (docs/architecture.md rule 6): the outbox worker hands each message to one of these. */
export interface MailTransport {
  readonly kind: "smtp" | "log" | "recording";
  send(mail: OutgoingMail): Promise<void>;
  close?(): void;
}

/**
 * Short timeouts: a stalled SMTP server must fail the attempt (the outbox
 * retries it later) well within the worker's claim lease, instead of holding
 * the worker for nodemailer's default ten minutes.
 */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;

/** `smtp://host:port` (STARTTLS when the server offers it) or `smtps://user:pass@host:port` (docs/contract.md). */
export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(
    {
      url: smtpUrl,
      connectionTimeout: SMTP_TIMEOUTS_MS.connection,
      greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
      socketTimeout: SMTP_TIMEOUTS_MS.socket,
    },
    { from },
  );
  return {
    kind: "smtp",
    async send(mail) {
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
    },
    close: () => transporter.close(),
  };
}

/** Without SMTP_URL mail is printed to the log; the outbox keeps it for /dev/mail. */
export function createLogTransport(log: Logger): MailTransport {
  return {
    kind: "log",
    async send(mail) {
      log.info({ to: mail.to, subject: mail.subject, text: mail.text }, "mail (no SMTP_URL: not sent)");
    },
  };
}

/** For tests: keeps what was sent and can be told to fail, like an SMTP server that is down. */
export interface RecordingTransport extends MailTransport {
  sent: OutgoingMail[];
  failing: boolean;
}

export function createRecordingTransport(): RecordingTransport {
  const transport: RecordingTransport = {
    kind: "recording",
    sent: [],
    failing: false,
    async send(mail) {
      if (transport.failing) throw new Error("SMTP server unavailable");
      transport.sent.push(mail);
    },
  };
  return transport;
}
