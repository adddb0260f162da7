// Token counts and embeddings under governance: each is a request against the key's limits
// (a requests cap refuses the next one with 429 in the caller's shape), a count is metered as a
// request with no tokens, and embeddings are metered with their input tokens.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { awsEnv, governedSuite, type AwsCreds } from '../governance/harness.js';

const run = promisify(execFile);

/** boto3's CountTokens (SigV4 with a minted AWS credential), converse form; prints the count. */
const BOTO3_COUNT = `
import json, sys, boto3, botocore.config
url, model = sys.argv[1], sys.argv[2]
c = boto3.client('bedrock-runtime', endpoint_url=url, config=botocore.config.Config(retries={'max_attempts': 1}))
r = c.count_tokens(modelId=model, input={'converse': {'messages': [{'role': 'user', 'content': [{'text': 'one two three'}]}]}})
print(json.dumps({'inputTokens': r['inputTokens']}))
`;

describe('counts and embeddings are governed and metered', () => {
  const g = governedSuite({ workers: 1 });

  const count = (key: string): Promise<Response> =>
    fetch(`${g.gw.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'pool-anthropic', messages: [{ role: 'user', content: 'one two three' }] }),
    });

  it('a requests cap counts a token count as a request', async () => {
    await g.admin.ok('POST', '/groups', { name: 'two', limits: [{ metric: 'requests', window: 'day', max: 2 }] });
    const key = await g.admin.mint({ name: 'counter', group: 'two' });
    assert.equal((await count(key.secret)).status, 200);
    assert.equal((await count(key.secret)).status, 200);
    const refused = await count(key.secret);
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as { type: string; error: { type: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'rate_limit_error');
  });

  it('boto3 count_tokens, signed with a minted AWS credential, on an Anthropic lane', async () => {
    const creds = (await g.admin.mint({ name: 'aws-counter', issue_aws_credential: true })) as AwsCreds;
    const { stdout } = await run('python3', ['-c', BOTO3_COUNT, g.gw.url, 'pool-anthropic'], { env: awsEnv(creds), timeout: 60_000 });
    assert.deepEqual(JSON.parse(stdout.trim()), { inputTokens: 3 });
  });

  it('a count meters no tokens; embeddings meter their input tokens', async () => {
    const key = await g.admin.mint({ name: 'metered' });
    assert.equal((await count(key.secret)).status, 200);
    const res = await fetch(`${g.gw.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
      body: JSON.stringify({ model: 'pool-ollama', input: ['alpha beta gamma', 'delta'] }),
    });
    assert.equal(res.status, 200);
    const served = (await res.json()) as { usage: { prompt_tokens: number } };
    // The mock's Ollama prompt_eval_count is the words of the inputs.
    assert.equal(served.usage.prompt_tokens, 4);
    // The workers hand metering to main every second.
    await new Promise((r) => setTimeout(r, 1_500));
    const usage = await g.admin.ok('GET', '/usage');
    const row = usage.by_key.find((r: { name: string }) => r.name === 'metered');
    assert.equal(row.requests, 2);
    assert.equal(row.tokens_input, 4);
    assert.equal(row.tokens_output, 0);
    const models = usage.by_model.map((m: { model: string }) => m.model).sort();
    assert.ok(models.includes('lane-anthropic') && models.includes('lane-ollama'), models.join(','));
  });
});
