// Defects the hardening scenarios found in other modules and not yet fixed
// there. A finding that matches one is counted and printed as `known`, not failed, so the
// rest of a scenario keeps guarding; each has a `{ todo }` test in test/hardening/fuzz-openapi.test.ts
// that reproduces it exactly and starts passing once it is fixed. Remove the entry then.
// (Fixed so far: the cart's undocumented 403, the deleted customer's 500, the order-total
// overflow; see that file.)

export interface Finding {
  kind: string;
  method: string;
  path: string;
  status: number;
  /** The server's logged cause of a 5xx, when known. */
  cause?: string;
}

export interface KnownIssue {
  id: string;
  reason: string;
  matches(finding: Finding): boolean;
}

export const KNOWN_ISSUES: KnownIssue[] = [];

export function knownIssueOf(finding: Finding): KnownIssue | undefined {
  return KNOWN_ISSUES.find((issue) => issue.matches(finding));
}
