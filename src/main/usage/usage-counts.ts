// The counts every usage row and total carries (per pool/lane, per key, GET /usage's sums):
// four token counts and the requests, added up the same way wherever rows are summed.

export interface UsageCounts {
  tokensInput: number;
  tokensOutput: number;
  tokensCacheRead: number;
  tokensCacheCreation: number;
  requests: number;
}

/** Adds `from`'s counts into `into`. */
export function addUsageCounts(into: UsageCounts, from: UsageCounts): void {
  into.tokensInput += from.tokensInput;
  into.tokensOutput += from.tokensOutput;
  into.tokensCacheRead += from.tokensCacheRead;
  into.tokensCacheCreation += from.tokensCacheCreation;
  into.requests += from.requests;
}

/** Every count zero, to spread into a new row. */
export const NO_USAGE_COUNTS: Readonly<UsageCounts> = { tokensInput: 0, tokensOutput: 0, tokensCacheRead: 0, tokensCacheCreation: 0, requests: 0 };
