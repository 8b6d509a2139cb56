import { SINK_API_PORT } from "./env";
import type { ReceivedMail } from "./smtp-sink";

let sequence = 0;

/**
 * A fresh address per test, so tests never see each other's mail or accounts; a school
 * address when `domain` is one of a campus's (ou.edu, utexas.edu, …).
 */
export function uniqueEmail(label: string, domain = "example.com"): string {
  sequence++;
  return `e2e-${label}-${Date.now()}-${process.pid}-${sequence}@${domain}`;
}

export async function mailTo(address: string): Promise<ReceivedMail[]> {
  const response = await fetch(
    `http://127.0.0.1:${SINK_API_PORT}/messages?to=${encodeURIComponent(address.toLowerCase())}`,
  );
  if (!response.ok) throw new Error(`SMTP sink API answered ${response.status}`);
  return (await response.json()) as ReceivedMail[];
}

/** Waits until the SMTP sink holds a mail to `address` (matching `accept`), and returns the newest. */
export async function waitForMail(
  address: string,
  accept: (mail: ReceivedMail) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailTo(address)).filter(accept);
    const newest = found.at(-1);
    if (newest) return newest;
    if (Date.now() > deadline) {
      throw new Error(`No mail to ${address} arrived at the SMTP sink within ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** docs/contract.md 'Mail': a code mail carries its 4-digit code as the only 4-digit number. */
export function codeFrom(mail: ReceivedMail): string {
  const code = mail.text.match(/\b(\d{4})\b/)?.[1] ?? mail.subject.match(/\b(\d{4})\b/)?.[1];
  if (!code) throw new Error(`No 4-digit code in the mail "${mail.subject}":\n${mail.text}`);
  return code;
}

/** The newest code mailed to an address. */
export async function waitForCode(address: string): Promise<string> {
  return codeFrom(await waitForMail(address, (mail) => /\b\d{4}\b/.test(`${mail.subject}\n${mail.text}`)));
}

export function linkFrom(mail: ReceivedMail, pathPrefix: string): string {
  const pattern = new RegExp(
    `https?://[^\\s"'<>]+${pathPrefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"'<>]*`,
  );
  const link = mail.text.match(pattern)?.[0] ?? mail.html.match(pattern)?.[0];
  if (!link) throw new Error(`No link to ${pathPrefix} in the mail "${mail.subject}":\n${mail.text}`);
  return link.replaceAll("&amp;", "&");
}
