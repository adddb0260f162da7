// Settings and faults: delays, pacing, padding, precedence (run < header < directive),
// require_auth, reset_before, reset_during, hang and client aborts counted in stats.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mockText } from '../../src/mock/content.js';
import { startMockProvider } from '../../src/mock/server.js';
import { eventually, post, streamedText } from './wire.js';
import { suiteMock } from '../helpers/clients/stack.js';

const CHAT = '/v1/chat/completions';

function chat(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'm', messages: [{ role: 'user', content }], ...extra };
}

describe('mock provider settings and faults', () => {
  const mock = suiteMock({ chunks: 2 });
  beforeEach(() => mock.reset());

  it('per-run setting, overridden by a header, overridden by the prompt directive', async () => {
    const run = await post(mock.url + CHAT, chat('hi'));
    assert.equal(JSON.parse(run.text).choices[0].message.content, mockText(2));
    const header = await post(mock.url + CHAT, chat('hi'), { 'x-mock-chunks': '3' });
    assert.equal(JSON.parse(header.text).choices[0].message.content, mockText(3));
    const directive = await post(mock.url + CHAT, chat('hi [mock chunks=4 input_tokens=20]'), { 'x-mock-chunks': '3' });
    const j = JSON.parse(directive.text);
    assert.equal(j.choices[0].message.content, mockText(4));
    assert.equal(j.usage.prompt_tokens, 20);
  });

  it('the directive counts only in the last user message that has text', async () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: 'first [mock chunks=7]' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'second [mock chunks=6]' }] },
      ],
    };
    const res = await post(mock.url + CHAT, body);
    assert.equal(JSON.parse(res.text).choices[0].message.content, mockText(6));
    const system = await post(mock.url + CHAT, {
      model: 'm',
      messages: [
        { role: 'system', content: '[mock chunks=9]' },
        { role: 'user', content: 'hi' },
      ],
    });
    assert.equal(JSON.parse(system.text).choices[0].message.content, mockText(2));
  });

  it('the directive works in part-based protocols (gemini, bedrock, anthropic)', async () => {
    const g = await post(`${mock.url}/v1beta/models/g:generateContent`, { contents: [{ role: 'user', parts: [{ text: 'x [mock chunks=3]' }] }] });
    assert.equal(JSON.parse(g.text).candidates[0].content.parts[0].text, mockText(3));
    const b = await post(`${mock.url}/model/b/converse`, { messages: [{ role: 'user', content: [{ text: '[mock chunks=4]' }] }] });
    assert.equal(JSON.parse(b.text).output.message.content[0].text, mockText(4));
    const a = await post(`${mock.url}/v1/messages`, {
      model: 'c',
      max_tokens: 9,
      messages: [{ role: 'user', content: [{ type: 'text', text: '[mock mode=tool]' }] }],
    });
    assert.equal(JSON.parse(a.text).content[0].type, 'tool_use');
  });

  it('a bad directive or header is a 400 naming the setting', async () => {
    const res = await post(mock.url + CHAT, chat('[mock fault=explode]'));
    assert.equal(res.status, 400);
    assert.match(JSON.parse(res.text).error.message, /fault/);
    const unknown = await post(mock.url + CHAT, chat('hi'), { 'x-mock-speed': '3' });
    assert.equal(unknown.status, 400);
    assert.match(JSON.parse(unknown.text).error.message, /unknown mock setting "speed"/);
  });

  it('latency_ms delays the response', async () => {
    const started = Date.now();
    const res = await post(mock.url + CHAT, chat('hi'), { 'x-mock-latency-ms': '150' });
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 140, `took ${Date.now() - started} ms`);
  });

  it('ttft_ms and tokens_per_sec space out a stream', async () => {
    const started = Date.now();
    const res = await fetch(mock.url + CHAT, {
      method: 'POST',
      headers: { 'x-mock-ttft-ms': '100', 'x-mock-tokens-per-sec': '20', 'x-mock-chunks': '4' },
      body: JSON.stringify(chat('hi', { stream: true })),
    });
    const headersAt = Date.now() - started;
    const reader = res.body!.getReader();
    const arrivals: number[] = [];
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arrivals.push(Date.now() - started);
      text += Buffer.from(value).toString('utf8');
    }
    assert.equal(streamedText(text), mockText(4));
    const total = arrivals.at(-1)!;
    // ttft 100 ms + 3 gaps of 50 ms: allow slack both ways, never assert an upper bound tightly.
    assert.ok(total >= 200, `stream took ${total} ms`);
    assert.ok(headersAt < total, 'headers come before the paced pieces');
    assert.ok(arrivals.length >= 3, `pieces arrived in ${arrivals.length} reads`);
  });

  it('non-stream answers wait for the whole generation', async () => {
    const started = Date.now();
    await post(mock.url + CHAT, chat('[mock ttft_ms=50 tokens_per_sec=50 chunks=3]'));
    assert.ok(Date.now() - started >= 80, `took ${Date.now() - started} ms`);
  });

  it('response_bytes pads the body to about that size', async () => {
    const json = await post(mock.url + CHAT, chat('[mock response_bytes=20000]'));
    assert.ok(Math.abs(json.bytes.byteLength - 20000) < 40, `json body ${json.bytes.byteLength} bytes`);
    assert.ok(JSON.parse(json.text).choices[0].message.content.startsWith('Thex'));
    const stream = await post(mock.url + '/v1/responses', { model: 'm', stream: true, input: '[mock response_bytes=50000 chunks=10]' });
    assert.ok(Math.abs(stream.bytes.byteLength - 50000) < 500, `stream body ${stream.bytes.byteLength} bytes`);
  });

  it('require_auth answers 401 without a credential and accepts each credential form', async () => {
    const auth = { 'x-mock-require-auth': 'true' };
    const none = await post(mock.url + '/v1/messages', { model: 'c', max_tokens: 5, messages: [] }, auth);
    assert.equal(none.status, 401);
    assert.equal(JSON.parse(none.text).error.type, 'authentication_error');
    for (const cred of <Array<Record<string, string>>>[
      { authorization: 'Bearer sk-x' },
      { 'x-api-key': 'k' },
      { 'x-goog-api-key': 'k' },
      { authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=00' },
    ]) {
      const ok = await post(mock.url + '/v1/messages', { model: 'c', max_tokens: 5, messages: [] }, { ...auth, ...cred });
      assert.equal(ok.status, 200, JSON.stringify(cred));
    }
  });

  it('reset_before destroys the connection without a response', async () => {
    await assert.rejects(post(mock.url + CHAT, chat('hi'), { 'x-mock-fault': 'reset_before' }));
    const s = mock.stats();
    assert.equal(s.resets, 1);
    assert.equal(s.aborted, 0);
    assert.equal(s.inflight, 0);
  });

  it('reset_during sends part of a body, then destroys the connection', async () => {
    const res = await fetch(mock.url + CHAT, { method: 'POST', headers: { 'x-mock-fault': 'reset_during' }, body: JSON.stringify(chat('hi')) });
    assert.equal(res.status, 200);
    await assert.rejects(res.text());
    assert.equal(mock.stats().resets, 1);
  });

  it('reset_during cuts a stream after some pieces', async () => {
    for (const pace of ['0', '200']) {
      const res = await fetch(mock.url + CHAT, {
        method: 'POST',
        headers: { 'x-mock-fault': 'reset_during', 'x-mock-chunks': '6', 'x-mock-tokens-per-sec': pace },
        body: JSON.stringify(chat('hi', { stream: true })),
      });
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      let received = '';
      await assert.rejects(async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          received += Buffer.from(value).toString('utf8');
        }
      });
      assert.ok(received.includes('"content":"The"'), `pace ${pace}: first piece arrived`);
      assert.ok(!received.includes('[DONE]'), `pace ${pace}: the stream was cut`);
    }
  });

  it('hang holds the request until the client goes away, counted as aborted', async () => {
    const controller = new AbortController();
    const pending = fetch(mock.url + CHAT, {
      method: 'POST',
      headers: { 'x-mock-fault': 'hang' },
      body: JSON.stringify(chat('hi')),
      signal: controller.signal,
    });
    await eventually(() => mock.stats().inflight === 1);
    controller.abort();
    await assert.rejects(pending);
    await eventually(() => mock.stats().aborted === 1);
    assert.equal(mock.stats().inflight, 0);
    assert.equal(mock.stats().completed, 0);
  });

  it('a client leaving mid-stream is counted as aborted', async () => {
    const controller = new AbortController();
    const res = await fetch(mock.url + CHAT, {
      method: 'POST',
      headers: { 'x-mock-chunks': '50', 'x-mock-tokens-per-sec': '20' },
      body: JSON.stringify(chat('hi', { stream: true })),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await eventually(() => mock.stats().aborted === 1);
    assert.equal(mock.stats().inflight, 0);
  });

  it('per-run faults and statuses apply to every request', async () => {
    const failing = await startMockProvider({ port: 0, status: 503, retry_after: 2 });
    try {
      const res = await post(failing.url + '/api/chat', { model: 'm', messages: [] });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '2');
      assert.equal(typeof JSON.parse(res.text).error, 'string');
      const healed = await post(failing.url + '/api/chat', { model: 'm', stream: false, messages: [] }, { 'x-mock-status': '200' });
      assert.equal(healed.status, 200);
    } finally {
      await failing.close();
    }
  });

  it('bad per-run options throw an error naming the option', async () => {
    await assert.rejects(startMockProvider({ port: 0, chunks: 0 }), /chunks/);
    await assert.rejects(startMockProvider({ port: 0, fault: 'boom' as never }), /fault/);
    await assert.rejects(startMockProvider({ port: -1 }), /port/);
  });
});
