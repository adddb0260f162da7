// TEMPORARY HOME (hooks issue 11): the increments of gateway_route_policy_selections_total
// {pool,policy} and gateway_route_policy_rejections_total{pool,policy,status} for pools with
// gates. The metrics work is adding the series and a small API for them; it was not on main
// when this was written, so the counts are kept here, worker-local and not yet exported.
// When that API lands, `selected` and `rejected` forward to it and this file goes.
export class RoutePolicyCounts {
  /** `${pool}\u0000${policy}` -> count. */
  readonly selections = new Map<string, number>();
  /** `${pool}\u0000${policy}\u0000${status}` -> count. */
  readonly rejections = new Map<string, number>();

  /** `policy`: the gate that set the order, or `weighted` / `first` when a built-in one did. */
  selected(pool: string, policy: string): void {
    const key = `${pool}\u0000${policy}`;
    this.selections.set(key, (this.selections.get(key) ?? 0) + 1);
  }

  rejected(pool: string, policy: string, status: number): void {
    const key = `${pool}\u0000${policy}\u0000${status}`;
    this.rejections.set(key, (this.rejections.get(key) ?? 0) + 1);
  }
}

/** One per worker. */
export const routePolicyCounts = new RoutePolicyCounts();
