// Where a request's step that could not finish at once is waiting (RequestContext.parked).
/** Where a step that could not finish at once is waiting. */
export const enum Parked {
  No = 0,
  /** For the rest of the body: the ingress's onBody runs the steps again from the same step. */
  Body = 1,
  /** For a promise (a key verified the first time, a gate's answer, an upstream credential). */
  Promise = 2,
  /** The attempt loop has the request (an upstream attempt in flight). */
  Upstream = 3,
}
