// The console's small shared pieces: htm bound to preact, a loader hook that refreshes, the
// session (principal and scope), and the error notice.
import { h, createContext } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import type { Schemas } from './api.js';

export const html = htm.bind(h);

export type Principal = Schemas['PrincipalView'];
export const SessionContext = createContext<Principal>({ id: 'anonymous', scope: 'read-only' });

/** True when the signed-in principal may mutate: every mutation control is drawn only then. */
export function useCanWrite(): boolean {
  return useContext(SessionContext).scope === 'full';
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  reload: () => void;
}

/** `load()` now, again on `reload()`, and every `refreshMs` when given. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], refreshMs?: number): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(null);
      },
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  useEffect(() => {
    if (refreshMs === undefined) return;
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs]);
  return { data, error, reload };
}

export function ErrorNotice({ error }: { error: string | null }) {
  return error === null ? null : html`<p class="notice error" role="alert">${error}</p>`;
}

/** Runs a mutation, reporting its outcome (the server's message on a refusal). */
export function useAction(): [string | null, string | null, (run: () => Promise<string>) => Promise<void>] {
  const [done, setDone] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const act = useCallback(async (run: () => Promise<string>) => {
    setDone(null);
    setFailed(null);
    try {
      setDone(await run());
    } catch (err) {
      setFailed((err as Error).message);
    }
  }, []);
  return [done, failed, act];
}

export function Outcome({ done, failed }: { done: string | null; failed: string | null }) {
  return html`${done !== null ? html`<p class="notice" role="status">${done}</p>` : null}<${ErrorNotice} error=${failed} />`;
}
