// Stored responses through the real gateway and the openai SDK: GET /v1/responses/{id}, its
// input_items and DELETE for the key that created it, 404 to another key; the state surviving a
// restart on sqlite, and shared by two gateway processes on one postgres store (a response
// made on A is read and continued on B).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { createBackend, type StoreBackend } from '../../helpers/store-backends.js';
import { startGateway } from '../../helpers/gateway.js';
import { INPUT_ITEMS_LIMIT_DEFAULT, INPUT_ITEMS_LIMIT_MAX } from '../../../src/shared/responses/views.js';
import { SecretWitness, SIGNING_KEY, startGoverned, stopGoverned, type Governed, governedSuite } from '../governance/harness.js';

const client = (g: Governed, secret: string): OpenAI => new OpenAI({ baseURL: `${g.gw.url}/v1`, apiKey: secret, maxRetries: 0 });
const isNotFound = (err: unknown): boolean => err instanceof OpenAI.NotFoundError;

/** The body the mock received last (its /mock/last-request control route). */
async function upstreamBody(mock: MockServer): Promise<string> {
  return ((await (await fetch(`${mock.url}/mock/last-request`)).json()) as { body: string }).body;
}

describe("a stored response is its key's", () => {
  const g = governedSuite({ workers: 2 });

  it('GET, input_items and DELETE by its key; 404 to another key', async () => {
    const owner = client(g, (await g.admin.mint({ name: 'owner' })).secret);
    const other = client(g, (await g.admin.mint({ name: 'other' })).secret);
    const made = await owner.responses.create({ model: 'pool-anthropic', input: 'keep this turn' });
    const got = await owner.responses.retrieve(made.id);
    assert.equal(got.id, made.id);
    assert.equal(got.output_text, made.output_text);
    const items = await owner.responses.inputItems.list(made.id);
    assert.equal(items.data.length, 1);
    assert.match(JSON.stringify(items.data[0]), /keep this turn/);
    await assert.rejects(other.responses.retrieve(made.id), isNotFound);
    await assert.rejects(other.responses.inputItems.list(made.id), isNotFound);
    await assert.rejects(other.responses.delete(made.id), isNotFound);
    // Another key cannot continue it either: its history is not theirs.
    await assert.rejects(
      other.responses.create({ model: 'pool-anthropic', input: 'x', previous_response_id: made.id }),
      (err: unknown) => err instanceof OpenAI.BadRequestError,
    );
    await owner.responses.delete(made.id);
    await assert.rejects(owner.responses.retrieve(made.id), isNotFound);
  });

  it('input_items pages by the default limit and refuses one past the maximum', async () => {
    const secret = (await g.admin.mint({ name: 'pager' })).secret;
    const owner = client(g, secret);
    const input = Array.from({ length: INPUT_ITEMS_LIMIT_DEFAULT + 5 }, (_, i) => ({ role: 'user' as const, content: `item ${i}` }));
    const made = await owner.responses.create({ model: 'pool-gemini', input });
    const page = await owner.responses.inputItems.list(made.id);
    assert.equal(page.data.length, INPUT_ITEMS_LIMIT_DEFAULT);
    assert.equal(page.has_more, true);
    const res = await fetch(`${g.gw.url}/v1/responses/${made.id}/input_items?limit=${INPUT_ITEMS_LIMIT_MAX + 1}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, new RegExp(`1\\.\\.${INPUT_ITEMS_LIMIT_MAX}`));
  });
});

describe('stored responses survive a restart on sqlite', () => {
  let mock: MockServer;
  let backend: StoreBackend;
  let g: Governed | undefined;
  const witness = new SecretWitness();
  before(async () => {
    mock = await startMockProvider({ port: 0 });
    backend = await createBackend('sqlite');
  });
  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
    await backend?.cleanup();
  });

  it('a response made before the restart is read and continued after it', async () => {
    g = await startGoverned(mock.url, witness, { workers: 1, over: { store: backend.config() } });
    const key = await g.admin.mint({ name: 'durable' });
    const made = await client(g, key.secret).responses.create({ model: 'pool-gemini', input: 'remember the lighthouse' });
    await g.gw.stop();
    g = { ...g, gw: await startGateway(g.files, { workers: 1, env: { GW_TEST_SIGNING_KEY: SIGNING_KEY } }) };
    const after = client(g, key.secret);
    assert.equal((await after.responses.retrieve(made.id)).id, made.id);
    await after.responses.create({ model: 'pool-anthropic', input: 'what did I say?', previous_response_id: made.id });
    assert.ok((await upstreamBody(mock)).includes('remember the lighthouse'));
  });
});

describe('two gateway processes share the state on postgres', () => {
  let mock: MockServer;
  let backend: StoreBackend;
  let a: Governed;
  let b: Governed;
  const witness = new SecretWitness();
  before(async () => {
    mock = await startMockProvider({ port: 0 });
    backend = await createBackend('postgres');
    const over = { store: backend.config() };
    a = await startGoverned(mock.url, witness, { workers: 1, over });
    b = await startGoverned(mock.url, witness, { workers: 1, over });
  });
  after(async () => {
    await stopGoverned(a, witness);
    await stopGoverned(b, witness);
    await mock?.close();
    await backend?.cleanup();
  });

  it('a response made on A is read, continued and deleted on B', async () => {
    const key = await a.admin.mint({ name: 'fleet' });
    const made = await client(a, key.secret).responses.create({ model: 'pool-anthropic', input: 'the password is swordfish' });
    const onB = client(b, key.secret);
    // B learns of the key A minted by the store's notification: retry until it verifies.
    let got: Awaited<ReturnType<OpenAI['responses']['retrieve']>> | null = null;
    for (let i = 0; i < 100 && got === null; i++) {
      try {
        got = await onB.responses.retrieve(made.id);
      } catch (err) {
        if (!(err instanceof OpenAI.AuthenticationError)) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    assert.equal(got?.id, made.id);
    await onB.responses.create({ model: 'pool-gemini', input: 'what is the password?', previous_response_id: made.id });
    assert.ok((await upstreamBody(mock)).includes('the password is swordfish'));
    await onB.responses.delete(made.id);
    await assert.rejects(client(a, key.secret).responses.retrieve(made.id), isNotFound);
  });
});
