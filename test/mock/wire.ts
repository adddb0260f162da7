// Test helpers for reading the mock provider's answers off the wire: plain fetch, SSE and
// NDJSON splitting, and AWS event-stream decoding with @smithy/eventstream-codec.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export interface WireAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<WireAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
}

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Splits an SSE body into events (LF or CRLF line ends). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    events.push({ event, data: data.join('\n') });
  }
  return events;
}

/** JSON payloads of the SSE data lines, skipping `[DONE]`. */
export function sseJson(text: string): any[] {
  return parseSse(text)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => JSON.parse(e.data));
}

/** The text of a Chat Completions stream: its deltas' contents, joined. */
export function streamedText(text: string): string {
  return sseJson(text)
    .map((c) => c.choices[0]?.delta?.content ?? '')
    .join('');
}

export function parseNdjson(text: string): any[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

export interface BedrockEvent {
  eventType: string;
  messageType: string;
  payload: any;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Decodes AWS event-stream frames (the codec checks both CRCs and throws on a bad one). */
export function decodeEventStream(bytes: Uint8Array): BedrockEvent[] {
  const events: BedrockEvent[] = [];
  let at = 0;
  while (at < bytes.byteLength) {
    const view = new DataView(bytes.buffer, bytes.byteOffset + at);
    const length = view.getUint32(0, false);
    const message = codec.decode(bytes.subarray(at, at + length));
    events.push({
      eventType: String(message.headers[':event-type']?.value),
      messageType: String(message.headers[':message-type']?.value),
      payload: JSON.parse(toUtf8(message.body)),
    });
    at += length;
  }
  return events;
}

/** Polls `check` until it is true or `timeoutMs` passes. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const WEATHER_TOOL_SCHEMA = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };
