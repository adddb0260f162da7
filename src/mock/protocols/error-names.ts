// Each vendor names its errors by HTTP status; the mock answers with that vendor's name. One
// table per protocol, read by the one lookup below.

/** A vendor's error name for each status it names, and what it says for the other 5xx and 4xx. */
export interface StatusNames<Name> {
  readonly byStatus: Readonly<Record<number, Name>>;
  readonly otherServerError: Name;
  readonly otherClientError: Name;
}

export function nameOfStatus<Name>(names: StatusNames<Name>, status: number): Name {
  return names.byStatus[status] ?? (status >= 500 ? names.otherServerError : names.otherClientError);
}
