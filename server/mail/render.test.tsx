import { describe, expect, it } from "vitest";
import { renderMail } from "./render";
import { PasswordResetEmail } from "./templates/password-reset";
import { VerificationCodeEmail } from "./templates/verification-code";

describe("VerificationCodeEmail (docs/contract.md 'Mail': the code is the only 4-digit number)", () => {
  for (const code of [1000, 4821, 9999]) {
    it(`carries ${code} as the only run of four or more digits, in html and text`, async () => {
      const { html, text } = await renderMail(
        <VerificationCodeEmail code={code} campusName="UT" purpose="verify your e-mail" />,
      );
      for (const part of [html, text]) {
        const runs = part.match(/\d{4,}/g) ?? [];
        expect(runs.length).toBeGreaterThan(0);
        expect(new Set(runs)).toEqual(new Set([String(code)]));
      }
      expect(text.match(/\b(\d{4})\b/)?.[1]).toBe(String(code));
    });
  }

  it("says codes expire after two hours (spec 1 §7), and names the campus and the purpose", async () => {
    const { html, text } = await renderMail(
      <VerificationCodeEmail code={3141} campusName="SMU" purpose="verify your school e-mail" />,
    );
    for (const part of [html, text]) {
      expect(part).toContain("Codes expire after two hours.");
      expect(part).toContain("SMU Buy / Sell");
      expect(part).toContain("verify your school e-mail");
    }
  });
});

describe("PasswordResetEmail", () => {
  it("carries the reset link in html and text", async () => {
    const url = "http://ut.localhost:3000/reset-password?token=abc_DEF-123";
    const { html, text } = await renderMail(<PasswordResetEmail url={url} campusName="UT" />);
    expect(html).toContain(`href="${url}"`);
    expect(text).toContain(url);
    expect(text.toLowerCase()).toContain("reset your password");
  });
});
