// Vendor-shaped Bedrock converse-stream frames, built with the AWS codec directly (not with
// the encoder under test), shared by the tests of this folder.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export const awsCodec = new EventStreamCodec(toUtf8, fromUtf8);

const str = (value: string) => ({ type: 'string' as const, value });

export function eventFrame(eventType: string, payload: unknown): Uint8Array {
  return rawEventFrame(eventType, JSON.stringify(payload));
}

/** An event frame whose payload is exactly `body` (JSON text as written, or any bytes). */
export function rawEventFrame(eventType: string, body: string | Uint8Array): Uint8Array {
  return awsCodec.encode({
    headers: { ':event-type': str(eventType), ':content-type': str('application/json'), ':message-type': str('event') },
    body: typeof body === 'string' ? fromUtf8(body) : body,
  });
}

export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return awsCodec.encode({
    headers: { ':exception-type': str(exceptionType), ':content-type': str('application/json'), ':message-type': str('exception') },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// What bedrock-runtime streams for a reasoning + text + tool-use answer. Real frames carry a
// `p` padding field; text blocks have no contentBlockStart.
export const vendorFrames: Uint8Array[] = [
  eventFrame('messageStart', { p: 'abcdefghijklmn', role: 'assistant' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Thinking about it.' } }, p: 'abcd' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'EqQB' } }, p: 'abcd' }),
  eventFrame('contentBlockStop', { contentBlockIndex: 0, p: 'abcdefgh' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Météo ' }, p: 'abcdefghijk' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'à Paris ☀️' }, p: 'ab' }),
  eventFrame('contentBlockStop', { contentBlockIndex: 1, p: 'abcdefgh' }),
  eventFrame('contentBlockStart', {
    contentBlockIndex: 2,
    start: { toolUse: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather' } },
    p: 'abcdefghijklmnopqrstu',
  }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } }, p: 'abc' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: ' "Paris"}' } }, p: 'abc' }),
  eventFrame('contentBlockStop', { contentBlockIndex: 2, p: 'abcdefgh' }),
  eventFrame('messageStop', { p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ', stopReason: 'tool_use' }),
  eventFrame('metadata', {
    metrics: { latencyMs: 1234 },
    p: 'abcdefghij',
    usage: { cacheReadInputTokens: 300, cacheWriteInputTokens: 10, inputTokens: 472, outputTokens: 89, totalTokens: 871 },
  }),
];

export const vendorStream = concat(vendorFrames);
