// The mock's two stream habits of real OpenAI-compatible servers: every event in its own write
// (chunking=event) and usage on the finish chunk instead of a usage-only chunk (usage_on_last).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { suiteMock } from '../helpers/clients/stack.js';

const mock = suiteMock();

/** The body's reads as they arrived. */
function reads(path: string, body: object): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = request(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const out: string[] = [];
      res.on('data', (c: Buffer) => out.push(c.toString()));
      res.on('end', () => resolve(out));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const chat = (directive: string) => ({
  model: 'm',
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content: `hi ${directive}` }],
});

describe('mock stream habits', () => {
  it('chunking=event sends each SSE event in its own write', async () => {
    const got = await reads('/v1/chat/completions', chat('[mock chunks=20 chunking=event]'));
    const text = got.join('');
    const events = text.split('\n\n').filter((e) => e !== '');
    assert.equal(events.length, 20 + 4); // role, 20 pieces, finish, usage, [DONE]
    // Loopback may still merge some sends into one read, never split an event across reads here.
    assert.ok(got.length > 5, `reads: ${got.length}`);
    for (const r of got) assert.ok(r.endsWith('\n\n'), JSON.stringify(r));
    assert.equal(text, (await reads('/v1/chat/completions', chat('[mock chunks=20]'))).join(''));
  });

  it('usage_on_last puts usage on the finish chunk and drops the usage-only chunk', async () => {
    const events = (await reads('/v1/chat/completions', chat('[mock chunks=3 usage_on_last=true]')))
      .join('')
      .split('\n\n')
      .filter((e) => e !== '');
    assert.equal(events.length, 3 + 3); // role, 3 pieces, finish with usage, [DONE]
    const finish = JSON.parse(events[4]!.slice(6));
    assert.equal(finish.choices[0].finish_reason, 'stop');
    assert.equal(finish.usage.completion_tokens, 3);
    assert.equal(events[5], 'data: [DONE]');
  });

  it('chunking=event keeps ndjson lines and event-stream frames whole', async () => {
    const ndjson = await reads('/api/chat', { model: 'm', messages: [{ role: 'user', content: 'hi [mock chunks=4 chunking=event]' }] });
    for (const r of ndjson) assert.ok(r.endsWith('\n'), JSON.stringify(r));
    assert.equal(
      ndjson
        .join('')
        .split('\n')
        .filter((l) => l !== '').length,
      5,
    );
  });
});
