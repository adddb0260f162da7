// The official @google/genai, pointed at a local server that answers with our encoders'
// bytes: proof that its stream parser, response types and error handling accept them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, GoogleGenAI } from '@google/genai';
import { GoogleGenAI as GoogleGenAiV1 } from 'genai-v1';
import { geminiCodec } from '../../../../src/shared/protocols/gemini/codec.js';
import type { StreamEvent } from '../../../../src/shared/model/types.js';
import { CannedUpstream, cannedResponse, cannedStream } from '../../../helpers/canned-upstream.js';
import { toolCallTurn } from '../../../helpers/stream-events.js';

let upstream: CannedUpstream;
let ai: GoogleGenAI;

before(async () => {
  upstream = await CannedUpstream.start(0);
  const port = upstream.port;
  ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: `http://127.0.0.1:${port}` } });
});

after(() => upstream.close());

const events: StreamEvent[] = toolCallTurn({ id: 'resp_9', model: 'gemini-pool', textTail: 'it up.', callId: 'toolu_7' });

describe('@google/genai reads what the gemini codec writes', () => {
  it('generateContentStream yields the text, the function call and the usage', async () => {
    upstream.next = cannedStream(geminiCodec, events);
    const texts: string[] = [];
    const calls: unknown[] = [];
    let last;
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-pool', contents: 'hi' })) {
      if (chunk.text) texts.push(chunk.text);
      if (chunk.functionCalls) calls.push(...chunk.functionCalls);
      last = chunk;
    }
    assert.equal(upstream.lastRequest?.url, '/v1beta/models/gemini-pool:streamGenerateContent?alt=sse');
    assert.deepEqual(texts, ['Looking ', 'it up.']);
    assert.deepEqual(calls, [{ id: 'toolu_7', name: 'get_weather', args: { city: 'Paris' } }]);
    assert.equal(last?.candidates?.[0]?.finishReason, 'STOP');
    assert.equal(last?.responseId, 'resp_9');
    assert.deepEqual(last?.usageMetadata, { promptTokenCount: 16, candidatesTokenCount: 7, totalTokenCount: 23, cachedContentTokenCount: 5 });
  });

  it('a chat session accepts the streamed turn into its history', async () => {
    upstream.next = cannedStream(geminiCodec, events);
    const chat = ai.chats.create({ model: 'gemini-pool' });
    for await (const _chunk of await chat.sendMessageStream({ message: 'hi' })) {
      /* drain */
    }
    // Curated history keeps a turn only when every chunk was valid and a finishReason came.
    const history = chat.getHistory(true);
    assert.equal(history[0]!.role, 'user');
    assert.ok(history.length > 1);
    assert.ok(history.slice(1).every((c) => c.role === 'model'));
  });

  it('generateContent reads the encoded response', async () => {
    upstream.next = cannedResponse(geminiCodec, {
      id: 'r1',
      model: 'gemini-pool',
      finishReason: 'length',
      content: [{ type: 'text', text: 'Hello' }],
      usage: { input: 3, output: 1, cacheRead: 0, cacheCreation: 0 },
    });
    const resp = await ai.models.generateContent({ model: 'gemini-pool', contents: 'hi' });
    assert.equal(upstream.lastRequest?.url, '/v1beta/models/gemini-pool:generateContent');
    assert.equal(resp.text, 'Hello');
    assert.equal(resp.candidates?.[0]?.finishReason, 'MAX_TOKENS');
    assert.equal(resp.usageMetadata?.promptTokenCount, 3);
  });

  it('raises ApiError with the status for the encoded error', async () => {
    upstream.next = geminiCodec.encodeError('rate_limited', 'slow down', 3);
    await assert.rejects(ai.models.generateContent({ model: 'gemini-pool', contents: 'hi' }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 429);
      assert.match(e.message, /RESOURCE_EXHAUSTED/);
      return true;
    });
  });

  it('raises the mid-stream error line as ApiError', async () => {
    upstream.next = cannedStream(geminiCodec, [events[0]!, events[2]!], 'upstream went away');
    const texts: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-pool', contents: 'hi' })) texts.push(chunk.text ?? '');
      })(),
      (e: unknown) => e instanceof ApiError && e.status === 502 && /upstream went away/.test(e.message),
    );
  });

  it('1.x raises on the mid-stream error too, even read in one piece with the text before it', async () => {
    // 1.x checks only a read that is one bare JSON error; run together with the chunks before
    // it, the bare object is left after the last blank line, which 1.x refuses at the end.
    const v1 = new GoogleGenAiV1({ apiKey: 'test-key', httpOptions: { baseUrl: `http://127.0.0.1:${upstream.port}` } });
    upstream.next = cannedStream(geminiCodec, events.slice(0, 3), 'upstream went away');
    const texts: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of await v1.models.generateContentStream({ model: 'gemini-pool', contents: 'hi' })) texts.push(chunk.text ?? '');
      })(),
    );
    assert.deepEqual(
      texts.filter((t) => t !== ''),
      ['Looking '],
    );
  });
});
