// The mock's knobs: one table of settings, each settable per run (CLI flag / MockOptions) and
// per request (header `x-mock-<name>` or a `[mock name=value ...]` directive in the last user
// message). Precedence: run < header < directive. A bad value is an error that names it.

export type MockFault = 'none' | 'reset_before' | 'reset_during' | 'hang' | 'context_length' | 'insufficient_quota';
export type MockMode = 'auto' | 'text' | 'tool';
/** How an unpaced stream is written: all in one write, or each event in its own (as servers that flush per token do). */
export type MockChunking = 'whole' | 'event';
/** `auto`: the answer reasons when the request asks for it in its protocol's own setting (reasoning/requested.ts). */
export type MockReasoning = 'auto' | 'on' | 'off';

export interface MockSettings {
  /** Delay before the response starts (status line and headers). */
  latency_ms: number;
  /** Delay from the headers to the first content chunk of a stream. */
  ttft_ms: number;
  /** Pace of content chunks after the first; 0 = as fast as possible. */
  tokens_per_sec: number;
  /** Number of text pieces (and output tokens). */
  chunks: number;
  /** Pad the text so the whole body is about this many bytes; 0 = no padding. */
  response_bytes: number;
  /** HTTP status; 200 answers normally, 400..599 answer with the protocol's error shape. */
  status: number;
  /** Seconds for a Retry-After header on an error status; null = no header. */
  retry_after: number | null;
  fault: MockFault;
  /** Uncached input tokens reported. */
  input_tokens: number;
  /** Cached input tokens reported (in each protocol's own cache field). */
  cache_read_tokens: number;
  /** auto: a tool call when tools are declared and the last message is not a tool result. */
  mode: MockMode;
  /** 401 unless the request carries a credential. */
  require_auth: boolean;
  /** This fraction of requests (0..1, spread evenly, per provider) answers 503 instead. */
  fail_ratio: number;
  /** `event`: every stream event (SSE frame, NDJSON line, event-stream frame) is its own write and send. */
  chunking: MockChunking;
  /** OpenAI chat streams with include_usage: usage rides on the finish chunk, with no usage-only chunk after it. */
  usage_on_last: boolean;
  /** A stream is held before its last piece until `POST /mock/release/<this key>` (held-streams.ts); null = not held. */
  hold_last: string | null;
  /** Size of an embedding vector when the request names none (kinds/answers.ts). */
  embedding_dims: number;
  /** Whether the answer starts with reasoning (each protocol's own shape, signed: reasoning/). */
  reasoning: MockReasoning;
  /** Reasoning tokens reported when the answer reasons (part of the output, as vendors count them). */
  reasoning_tokens: number;
  /** Cache-write input tokens reported (Anthropic and Bedrock have a field; the others count them as input). */
  cache_creation_tokens: number;
  /** Gemini streams: usageMetadata on every chunk (its running total, prompt counted from the first), as Gemini sends it. */
  usage_every_chunk: boolean;
}

export type MockSettingName = keyof MockSettings;

export const DEFAULT_MOCK_SETTINGS: Readonly<MockSettings> = Object.freeze({
  latency_ms: 0,
  ttft_ms: 0,
  tokens_per_sec: 0,
  chunks: 5,
  response_bytes: 0,
  status: 200,
  retry_after: null,
  fault: 'none',
  input_tokens: 12,
  cache_read_tokens: 0,
  mode: 'auto',
  require_auth: false,
  fail_ratio: 0,
  chunking: 'whole',
  usage_on_last: false,
  hold_last: null,
  embedding_dims: 8,
  reasoning: 'auto',
  reasoning_tokens: 3,
  cache_creation_tokens: 0,
  usage_every_chunk: false,
});

type RawSetting = string | number | boolean | null;
/** Parses one raw value; returns the value or throws a SettingError. */
type SettingParser = (raw: RawSetting) => MockSettings[MockSettingName];

export class SettingError extends Error {}

const DELAY_MS_MAX = 600_000;

function integer(min: number, max: number): SettingParser {
  return (raw) => {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) throw new SettingError(`must be an integer in ${min}..${max}`);
    return n;
  };
}

function rate(raw: RawSetting): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1_000_000) throw new SettingError('must be a number in 0..1000000');
  return n;
}

function ratio(raw: RawSetting): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new SettingError('must be a number in 0..1');
  return n;
}

function oneOf<T extends MockFault | MockMode | MockChunking | MockReasoning>(values: readonly T[]): SettingParser {
  return (raw) => {
    if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as T;
    throw new SettingError(`must be one of ${values.join(', ')}`);
  };
}

function flag(raw: RawSetting): boolean {
  if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
  if (raw === false || raw === 'false' || raw === '0' || raw === 0) return false;
  throw new SettingError('must be true or false');
}

function httpStatus(raw: RawSetting): number {
  const n = integer(200, 599)(raw) as number;
  if (n !== 200 && n < 400) throw new SettingError('must be 200 or an error status in 400..599');
  return n;
}

function retryAfter(raw: RawSetting): number | null {
  if (raw === null || raw === '' || raw === 'none') return null;
  return integer(0, 86_400)(raw) as number;
}

function holdKey(raw: RawSetting): string | null {
  if (raw === null || raw === '' || raw === 'none') return null;
  if (typeof raw === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(raw)) return raw;
  throw new SettingError('must be a key of 1 to 64 letters, digits, "_", "." or "-"');
}

const PARSERS: Record<MockSettingName, SettingParser> = {
  latency_ms: integer(0, DELAY_MS_MAX),
  ttft_ms: integer(0, DELAY_MS_MAX),
  tokens_per_sec: rate,
  chunks: integer(1, 100_000),
  response_bytes: integer(0, 64 * 1024 * 1024),
  status: httpStatus,
  retry_after: retryAfter,
  fault: oneOf<MockFault>(['none', 'reset_before', 'reset_during', 'hang', 'context_length', 'insufficient_quota']),
  input_tokens: integer(0, 100_000_000),
  cache_read_tokens: integer(0, 100_000_000),
  mode: oneOf<MockMode>(['auto', 'text', 'tool']),
  require_auth: flag,
  fail_ratio: ratio,
  chunking: oneOf<MockChunking>(['whole', 'event']),
  usage_on_last: flag,
  hold_last: holdKey,
  embedding_dims: integer(1, 65_536),
  reasoning: oneOf<MockReasoning>(['auto', 'on', 'off']),
  reasoning_tokens: integer(0, 100_000_000),
  cache_creation_tokens: integer(0, 100_000_000),
  usage_every_chunk: flag,
};

export const MOCK_SETTING_NAMES = Object.keys(PARSERS) as readonly MockSettingName[];

/** `latency-ms`, `Latency_MS` and `latency_ms` all name latency_ms; null when unknown. */
export function settingName(name: string): MockSettingName | null {
  const normal = name.toLowerCase().replace(/-/g, '_');
  return Object.hasOwn(PARSERS, normal) ? (normal as MockSettingName) : null;
}

/** Sets one setting from a raw value; throws a SettingError naming the setting when bad. */
export function setSetting(target: MockSettings, name: string, raw: RawSetting): void {
  const key = settingName(name);
  if (key === null) throw new SettingError(`unknown mock setting "${name}" (known: ${MOCK_SETTING_NAMES.join(', ')})`);
  try {
    (target as unknown as Record<string, unknown>)[key] = PARSERS[key](raw);
  } catch (err) {
    throw new SettingError(`mock setting ${key}=${String(raw)}: ${(err as Error).message}`);
  }
}

/** The run's settings from MockOptions-like input; unknown keys are skipped by the caller. */
export function settingsFrom(values: Partial<Record<MockSettingName, RawSetting | undefined>>): MockSettings {
  const settings: MockSettings = { ...DEFAULT_MOCK_SETTINGS };
  for (const name of MOCK_SETTING_NAMES) {
    const raw = values[name];
    if (raw !== undefined) setSetting(settings, name, raw);
  }
  return settings;
}

const DIRECTIVE = /\[mock((?:\s+[A-Za-z_-]+=[^\s\]]*)*)\s*\]/g;
const DIRECTIVE_PAIR = /([A-Za-z_-]+)=([^\s\]]*)/g;

/**
 * The name=value pairs of the last `[mock a=1 b=2]` directive in a text, or null when there is
 * none. Only the last one counts, so a user can append a directive to override an earlier one.
 */
export function findDirective(text: string): Array<[string, string]> | null {
  let body: string | null = null;
  for (const match of text.matchAll(DIRECTIVE)) body = match[1]!;
  if (body === null) return null;
  const pairs: Array<[string, string]> = [];
  for (const pair of body.matchAll(DIRECTIVE_PAIR)) pairs.push([pair[1]!, pair[2]!]);
  return pairs;
}

const renderKeys = new WeakMap<MockSettings, string>();

/** The part of the settings that changes a rendered body, as a cache key fragment (memoized). */
export function renderKey(s: MockSettings): string {
  let key = renderKeys.get(s);
  if (key === undefined) {
    key = `${s.chunks}|${s.response_bytes}|${s.input_tokens}|${s.cache_read_tokens}|${s.usage_on_last ? 'u' : ''}|${s.reasoning_tokens}|${s.cache_creation_tokens}|${s.usage_every_chunk ? 'e' : ''}`;
    renderKeys.set(s, key);
  }
  return key;
}
