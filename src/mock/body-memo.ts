// What the mock reads from a request body, remembered per (path, exact body bytes). Load tests
// send the same few bodies again and again; parsing each once keeps JSON.parse, the protocol's
// fact reading and the directive off the hot path.
import { Buffer } from 'node:buffer';
import { objectAt } from './protocols/json-read.js';
import { readAnswerShape } from './protocols/answer-shape.js';
import type { MockProtocol, RequestFacts, RouteFacts } from './protocols/types.js';
import type { RenderedStream } from './render-cache.js';
import { findDirective, setSetting, SettingError, type MockSettings } from './settings.js';
import { reasoningRequested } from './reasoning/requested.js';
import { reasoningHistoryError } from './reasoning/verify.js';

export interface BodyFacts {
  readonly ok: true;
  readonly facts: RequestFacts;
  /** name=value pairs of the prompt's `[mock ...]` directive, or null. */
  readonly directive: ReadonlyArray<readonly [string, string]> | null;
  /** Run settings with the directive applied (null when the directive is bad). */
  readonly settings: MockSettings | null;
  readonly settingsError: string | null;
  /** The request asks its model to reason, in its protocol's own setting. */
  readonly reasoningRequested: boolean;
  /** What the vendor would refuse in the reasoning state sent back (reasoning/verify.ts): when the answer reasons, and when not. */
  readonly historyError: { readonly reasoning: string | null; readonly plain: string | null };
  /** The answer rendered with `settings`, kept here once made (requests without x-mock headers). */
  json: Buffer | null;
  stream: RenderedStream | null;
}

export type BodyReading = BodyFacts | { readonly ok: false; readonly status: number; readonly message: string };

/** Bodies larger than this are read every time rather than kept as keys. */
const MEMO_BODY_CHARS_MAX = 16 * 1024;
const MEMO_BODIES_PER_PATH_MAX = 512;
const MEMO_PATHS_MAX = 256;

export class BodyMemo {
  private readonly byPath = new Map<string, Map<string, BodyReading>>();

  constructor(private readonly runSettings: MockSettings) {}

  /** `bodyLatin1` is the body's bytes one char per byte, so equal keys mean equal bytes. */
  read(protocol: MockProtocol, path: string, route: RouteFacts, bodyLatin1: string): BodyReading {
    if (bodyLatin1.length > MEMO_BODY_CHARS_MAX) return readBody(protocol, route, bodyLatin1, this.runSettings);
    let bodies = this.byPath.get(path);
    let reading = bodies?.get(bodyLatin1);
    if (reading !== undefined) return reading;
    reading = readBody(protocol, route, bodyLatin1, this.runSettings);
    if (bodies === undefined) {
      if (this.byPath.size >= MEMO_PATHS_MAX) this.byPath.clear();
      bodies = new Map();
      this.byPath.set(path, bodies);
    }
    if (bodies.size >= MEMO_BODIES_PER_PATH_MAX) bodies.clear();
    bodies.set(bodyLatin1, reading);
    return reading;
  }

  clear(): void {
    this.byPath.clear();
  }
}

function readBody(protocol: MockProtocol, route: RouteFacts, bodyLatin1: string, runSettings: MockSettings): BodyReading {
  const text = Buffer.from(bodyLatin1, 'latin1').toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, message: 'request body is not valid JSON' };
  }
  const body = objectAt(parsed);
  if (body === null) return { ok: false, status: 400, message: 'request body must be a JSON object' };
  const read = protocol.readFacts(body, route);
  if (typeof read === 'string') return { ok: false, status: 400, message: read };
  const facts: RequestFacts = { ...read, answer: readAnswerShape(protocol.name, body) };
  const directive = text.includes('[mock') ? findDirective(protocol.lastUserText(body)) : null;
  let settings: MockSettings | null = runSettings;
  let settingsError: string | null = null;
  if (directive !== null) {
    try {
      settings = applySettings(runSettings, null, directive);
    } catch (err) {
      if (!(err instanceof SettingError)) throw err;
      settings = null;
      settingsError = err.message;
    }
  }
  const historyError = { reasoning: reasoningHistoryError(protocol.name, body, true), plain: reasoningHistoryError(protocol.name, body, false) };
  return {
    ok: true,
    facts,
    directive,
    settings,
    settingsError,
    reasoningRequested: reasoningRequested(protocol.name, body),
    historyError,
    json: null,
    stream: null,
  };
}

/** Run settings, then x-mock-* headers, then the directive; throws a SettingError naming a bad one. */
export function applySettings(
  runSettings: MockSettings,
  headers: ReadonlyArray<readonly [string, string]> | null,
  directive: ReadonlyArray<readonly [string, string]> | null,
): MockSettings {
  const settings: MockSettings = { ...runSettings };
  if (headers !== null) for (const [name, value] of headers) setSetting(settings, name, value);
  if (directive !== null) for (const [name, value] of directive) setSetting(settings, name, value);
  return settings;
}
