// Ollama's routes as its docs and clients call them: the docs' curl forms (no content type, so
// curl sends a form type; streaming by default), /api/generate (the completion form, through
// the ollama SDK, to lanes of other protocols too), and `GET /` / `HEAD /` (server detection).
// Also the leniencies of the other vendors: Gemini's `?key=` and `?alt=sse`, Anthropic's
// version and beta headers passed through to an Anthropic lane.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { Ollama } from 'ollama';
import { request } from 'undici';
import { mockText } from '../../../src/mock/content.js';
import { suiteStack } from '../../helpers/clients/stack.js';

const run = promisify(execFile);

const stack = suiteStack();

/** The NDJSON lines of an Ollama stream, parsed. */
function lines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function curl(args: string[]): Promise<string> {
  const { stdout } = await run('curl', ['-sS', '--max-time', '20', ...args]);
  return stdout;
}

describe("the Ollama docs' curl forms", () => {
  it('curl /api/chat -d (a form content type, streaming by default) streams NDJSON', async () => {
    const out = await curl([
      `${stack.gateway.url}/api/chat`,
      '-d',
      JSON.stringify({ model: 'pool-openai', messages: [{ role: 'user', content: 'why is the sky blue?' }] }),
    ]);
    const parsed = lines(out);
    assert.ok(parsed.length >= 2, out);
    const last = parsed[parsed.length - 1]!;
    assert.equal(last.done, true);
    assert.equal(last.done_reason, 'stop');
    assert.equal(last.prompt_eval_count, 12);
    assert.equal(last.eval_count, 5);
    const text = parsed.map((l) => (l.message as { content: string }).content).join('');
    assert.equal(text, mockText(5));
  });

  it('curl /api/chat with "stream": false answers one object; to an Ollama lane the bytes pass through', async () => {
    for (const model of ['pool-anthropic', 'pool-ollama']) {
      const one = JSON.parse(
        await curl([`${stack.gateway.url}/api/chat`, '-d', JSON.stringify({ model, stream: false, messages: [{ role: 'user', content: 'hi' }] })]),
      ) as Record<string, unknown>;
      assert.equal((one.message as { content: string }).content, mockText(5), model);
      assert.equal(one.done, true, model);
    }
  });

  it('curl /api/generate -d streams `response` lines and a done line', async () => {
    const out = await curl([`${stack.gateway.url}/api/generate`, '-d', JSON.stringify({ model: 'pool-gemini', prompt: 'Why is the sky blue?' })]);
    const parsed = lines(out);
    const last = parsed[parsed.length - 1]!;
    assert.equal(last.done, true);
    assert.equal(last.eval_count, 5);
    assert.equal(parsed.map((l) => l.response as string).join(''), mockText(5));
  });

  it('curl /api/tags, /api/show and /api/version', async () => {
    const tags = JSON.parse(await curl([`${stack.gateway.url}/api/tags`])) as { models: Array<{ name: string }> };
    assert.ok(tags.models.some((m) => m.name === 'pool-ollama'));
    const shown = JSON.parse(await curl([`${stack.gateway.url}/api/show`, '-d', '{"model":"pool-ollama"}'])) as { details: unknown };
    assert.ok(shown.details !== undefined);
    const version = JSON.parse(await curl([`${stack.gateway.url}/api/version`])) as { version: string };
    assert.equal(typeof version.version, 'string');
  });

  it('GET / and HEAD / answer as Ollama does', async () => {
    const get = await request(`${stack.gateway.url}/`);
    assert.equal(get.statusCode, 200);
    assert.equal(await get.body.text(), 'Ollama is running');
    const head = await request(`${stack.gateway.url}/`, { method: 'HEAD' });
    await head.body.text();
    assert.equal(head.statusCode, 200);
  });
});

describe('/api/generate through the ollama SDK', () => {
  for (const lane of ['openai', 'anthropic', 'ollama']) {
    it(`generate to a ${lane} lane, non-stream and stream, with a system prompt and options`, async () => {
      const ollama = new Ollama({ host: stack.gateway.url });
      const one = await ollama.generate({
        model: `pool-${lane}`,
        prompt: 'Say something.',
        system: 'Be brief.',
        options: { temperature: 0.2, stop: ['\n\n'] },
        stream: false,
      });
      assert.equal(one.response, mockText(5));
      assert.equal(one.done, true);
      assert.equal(one.done_reason, 'stop');
      assert.equal(one.prompt_eval_count, 12);
      assert.equal(one.eval_count, 5);
      let text = '';
      let pieces = 0;
      let done: { eval_count: number } | null = null;
      for await (const part of await ollama.generate({ model: `pool-${lane}`, prompt: 'Say something.', stream: true })) {
        text += part.response;
        pieces++;
        if (part.done) done = part;
      }
      assert.equal(text, mockText(5));
      assert.ok(pieces >= 2);
      assert.equal(done?.eval_count, 5);
    });
  }

  it('an Ollama lane gets an /api/chat request (the prompt as a user message, the system first)', async () => {
    await new Ollama({ host: stack.gateway.url }).generate({ model: 'pool-ollama', prompt: 'P', system: 'S', stream: false });
    const last = (await (await request(`${stack.mock.url}/mock/last-request`)).body.json()) as { path: string; body: string };
    assert.equal(last.path, '/api/chat');
    const body = JSON.parse(last.body) as { messages: unknown };
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'P' },
    ]);
  });

  it("a JSON format on /api/generate to another protocol is translated into the lane's own field; suffix is refused", async () => {
    const r = await new Ollama({ host: stack.gateway.url }).generate({ model: 'pool-openai', prompt: 'P', format: 'json', stream: false });
    assert.equal(typeof JSON.parse(r.response ?? ''), 'object');
    await assert.rejects(new Ollama({ host: stack.gateway.url }).generate({ model: 'pool-openai', prompt: 'P', suffix: 'end', stream: false }), /suffix/);
  });
});

describe("the other vendors' leniency", () => {
  it("Gemini's ?key= and ?alt=sse on streamGenerateContent", async () => {
    const res = await request(`${stack.gateway.url}/v1beta/models/pool-openai:streamGenerateContent?alt=sse&key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/event-stream/);
    const text = await res.body.text();
    assert.match(text, /^data: /m);
  });

  it('anthropic-version and anthropic-beta reach an Anthropic lane as the caller sent them', async () => {
    const sdk = new Anthropic({
      baseURL: stack.gateway.url,
      apiKey: 'k',
      maxRetries: 0,
      defaultHeaders: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31' },
    });
    await sdk.messages.create({ model: 'pool-anthropic', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const last = (await (await request(`${stack.mock.url}/mock/last-request`)).body.json()) as { headers: Record<string, string> };
    assert.equal(last.headers['anthropic-version'], '2023-06-01');
    assert.equal(last.headers['anthropic-beta'], 'prompt-caching-2024-07-31');
  });

  it('a JSON route other than Ollama still refuses a form content type (OpenAI does too)', async () => {
    const res = await request(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ model: 'pool-openai', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.body.text();
    assert.equal(res.statusCode, 415);
  });
});
