import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GRAD_YEAR_PATH } from "./badge.shared";

describe("the year banner's address (decision 0682)", () => {
  it("is the year page's, written out in the banner to spare the first load", () => {
    const banner = readFileSync(new URL("../../app/components/shell/banners.tsx", import.meta.url), "utf8");
    expect(banner).toContain(`const GRAD_YEAR_PATH = "${GRAD_YEAR_PATH}";`);
  });
});
