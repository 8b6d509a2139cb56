// Pure campus helpers, free of database imports so browser forms can use them too.

/** What a campus calls itself: 'UT Buy / Sell'; the generic instance is 'Campus Buy Sell'. */
export function campusBrand(campus: { name: string; generic: boolean }): string {
  return campus.generic ? "Campus Buy Sell" : `${campus.name} Buy / Sell`;
}

/** A school e-mail's domain must be one of the campus's domains or a subdomain of one (docs/contract.md). */
export function isSchoolEmailDomain(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf("@");
  if (at < 0) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}
