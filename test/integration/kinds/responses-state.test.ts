// Conversation state of the Responses API on any lane, through the real gateway: the OpenAI
// Agents SDK's previousResponseId across two turns on an Anthropic and a Gemini pool (the
// second turn's upstream request holds the first turn: the gateway kept it and put it before
// the new input), non-stream and streamed; `store: false` keeps nothing; `conversation` off a
// Responses lane and Anthropic's `thread` off an Anthropic lane are refused with a 400 saying why.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { suiteStack } from '../../helpers/clients/stack.js';

setTracingDisabled(true);
const stack = suiteStack({ workers: 1 });

/** The body the mock received last (its /mock/last-request control route). */
async function upstreamBody(): Promise<string> {
  const res = await fetch(`${stack.mock.url}/mock/last-request`);
  assert.equal(res.status, 200, 'the mock received no request');
  return ((await res.json()) as { body: string }).body;
}

function runner(): Runner {
  return new Runner({
    modelProvider: new OpenAIProvider({ baseURL: `${stack.gateway.url}/v1`, apiKey: 'sk-test', useResponses: true }),
    tracingDisabled: true,
  });
}

describe('Agents SDK previousResponseId on lanes that keep no state', () => {
  for (const pool of ['pool-anthropic', 'pool-gemini']) {
    for (const stream of [false, true]) {
      it(`${pool}${stream ? ', streamed' : ''}: the second turn's upstream request holds the first`, async () => {
        const agent = new Agent({ name: 'rememberer', instructions: 'Answer briefly.', model: pool });
        const r = runner();
        const first = stream ? await r.run(agent, 'My name is Ada Lovelace.', { stream: true }) : await r.run(agent, 'My name is Ada Lovelace.');
        if (stream) await (first as { completed: Promise<void> }).completed;
        const firstId = first.lastResponseId;
        assert.match(firstId ?? '', /^resp_[0-9a-f]{48}$/, 'the gateway minted the id');
        const firstText = String(first.finalOutput);
        assert.ok(firstText.length > 0);
        const second = stream
          ? await r.run(agent, 'What is my name?', { stream: true, previousResponseId: firstId })
          : await r.run(agent, 'What is my name?', { previousResponseId: firstId });
        if (stream) await (second as { completed: Promise<void> }).completed;
        const sent = await upstreamBody();
        assert.ok(sent.includes('My name is Ada Lovelace.'), "the first turn's input went upstream");
        assert.ok(sent.includes(firstText.slice(0, 20)), "the first turn's output went upstream");
        assert.ok(sent.includes('What is my name?'));
        assert.notEqual(second.lastResponseId, firstId);
      });
    }
  }
});

describe('what is stored and what is refused', () => {
  const client = (): OpenAI => new OpenAI({ baseURL: `${stack.gateway.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });

  it('store: false keeps nothing: the id cannot be continued or read', async () => {
    const r = await client().responses.create({ model: 'pool-anthropic', input: 'forget me', store: false });
    await assert.rejects(client().responses.retrieve(r.id), (err: unknown) => err instanceof OpenAI.NotFoundError);
    await assert.rejects(
      client().responses.create({ model: 'pool-anthropic', input: 'again', previous_response_id: r.id }),
      (err: unknown) => err instanceof OpenAI.BadRequestError && /not found/.test(err.message),
    );
  });

  it('conversation on an Anthropic lane is refused, saying why', async () => {
    await assert.rejects(
      client().responses.create({ model: 'pool-anthropic', input: 'hi', conversation: 'conv_123' }),
      (err: unknown) => err instanceof OpenAI.BadRequestError && /conversations are kept by OpenAI's Responses API; use previous_response_id/.test(err.message),
    );
  });

  it('Anthropic thread on a Gemini lane is refused, saying why', async () => {
    const res = await fetch(`${stack.gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'pool-gemini', max_tokens: 10, thread: { id: 'thr_1' }, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { type: string; error: { message: string } };
    assert.equal(body.type, 'error');
    assert.match(body.error.message, /a thread is state Anthropic keeps/);
  });

  it('a Responses lane keeps its own state: the same lane gets its own id, no history', async () => {
    const first = await client().responses.create({ model: 'pool-responses', input: 'My name is Ada.' });
    await client().responses.create({ model: 'pool-responses', input: 'Name?', previous_response_id: first.id });
    const sent = JSON.parse(await upstreamBody()) as { previous_response_id?: string; input: unknown };
    assert.equal(sent.previous_response_id, first.id);
    assert.ok(!JSON.stringify(sent.input).includes('My name is Ada.'));
  });
});
