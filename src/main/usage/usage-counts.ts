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
