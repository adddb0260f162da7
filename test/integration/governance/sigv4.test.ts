// A Bedrock call through @aws-sdk/client-bedrock-runtime signed (SigV4) with the AWS
// credential a mint issued succeeds, and so does boto3's (which signs no x-amz-content-sha256);
// a wrong secret, a stale date and a body altered after signing are refused with 401 in
// Bedrock's shape.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { startMockProvider, type MockServer } from '../../../src/mock/server.js';
import { SecretWitness, startGoverned, stopGoverned, type Governed } from './harness.js';

const run = promisify(execFile);

function client(url: string, accessKeyId: string, secretAccessKey: string, systemClockOffset = 0): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId, secretAccessKey },
    requestHandler: new NodeHttpHandler({ requestTimeout: 20_000 }),
    maxAttempts: 1,
    systemClockOffset,
  });
}

const converse = (): ConverseCommand => new ConverseCommand({ modelId: 'pool-bedrock', messages: [{ role: 'user', content: [{ text: 'hi' }] }] });

async function refusal(c: BedrockRuntimeClient): Promise<{ status: number; name: string; message: string }> {
  try {
    await c.send(converse());
  } catch (err) {
    const e = err as { $metadata?: { httpStatusCode?: number }; name: string; message: string };
    return { status: e.$metadata?.httpStatusCode ?? 0, name: e.name, message: e.message };
  }
  throw new Error('the call succeeded but a refusal was expected');
}

describe('SigV4 with minted AWS credentials', () => {
  let mock: MockServer;
  let g: Governed;
  let creds: { id: string; aws_access_key_id: string; aws_secret_access_key: string };
  const witness = new SecretWitness();

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    g = await startGoverned(mock.url, witness, { workers: 2 });
    const minted = await g.admin.mint({ name: 'aws', issue_aws_credential: true });
    creds = minted as typeof creds;
  });
  after(async () => {
    await stopGoverned(g, witness);
    await mock?.close();
  });

  it('the mint answers an access key id and secret once; reads show neither secret', async () => {
    assert.match(creds.aws_access_key_id, /^AKGW[A-Z2-7]{16}$/);
    assert.equal(creds.aws_secret_access_key.length, 40);
    const view = await g.admin.ok('GET', `/keys/${creds.id}`);
    assert.equal(view.aws_secret_access_key, undefined);
    const plain = await g.admin.mint({ name: 'no-aws' });
    assert.equal('aws_access_key_id' in plain, false);
  });

  it('a call signed with them succeeds, on either worker', async () => {
    for (let i = 0; i < 4; i++) {
      const out = await client(g.gw.url, creds.aws_access_key_id, creds.aws_secret_access_key).send(converse());
      assert.ok(out.output?.message?.content?.[0]?.text);
    }
  });

  it('a call boto3 signed succeeds (its signature covers no x-amz-content-sha256)', async () => {
    const script = [
      'import boto3, sys',
      `c = boto3.client("bedrock-runtime", endpoint_url=sys.argv[1], region_name="us-east-1")`,
      'a = c.converse(modelId="pool-bedrock", messages=[{"role": "user", "content": [{"text": "hi"}]}])',
      'print(a["output"]["message"]["content"][0]["text"])',
    ].join('\n');
    // Not spawnSync: the mock answering the gateway runs in this process.
    const { stdout } = await run('python3', ['-c', script, g.gw.url], {
      timeout: 60_000,
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: creds.aws_access_key_id,
        AWS_SECRET_ACCESS_KEY: creds.aws_secret_access_key,
        AWS_SESSION_TOKEN: undefined,
        AWS_PROFILE: undefined,
      },
    });
    assert.match(stdout, /The quick brown fox/);
  });

  it('a wrong secret is refused', async () => {
    const f = await refusal(client(g.gw.url, creds.aws_access_key_id, 'x'.repeat(40)));
    assert.equal(f.status, 401);
    assert.equal(f.name, 'UnrecognizedClientException');
    assert.match(f.message, /does not match/);
  });

  it('a stale date is refused', async () => {
    const f = await refusal(client(g.gw.url, creds.aws_access_key_id, creds.aws_secret_access_key, -20 * 60_000));
    assert.equal(f.status, 401);
    assert.match(f.message, /15 minutes/);
  });

  it('a body altered after signing is refused', async () => {
    const c = client(g.gw.url, creds.aws_access_key_id, creds.aws_secret_access_key);
    // The deserialize step runs after signing, just before the request is sent.
    c.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { body: string };
        request.body = request.body.replace('"hi"', '"ho"');
        return next(args);
      },
      { step: 'deserialize', name: 'tamper' },
    );
    const f = await refusal(c);
    assert.equal(f.status, 401);
    assert.match(f.message, /does not match/);
  });

  it('a deleted key takes its AWS credential with it', async () => {
    const other = await g.admin.mint({ name: 'aws-doomed', issue_aws_credential: true });
    await client(g.gw.url, other.aws_access_key_id!, other.aws_secret_access_key!).send(converse());
    await g.admin.ok('DELETE', `/keys/${other.id}`);
    const f = await refusal(client(g.gw.url, other.aws_access_key_id!, other.aws_secret_access_key!));
    assert.equal(f.status, 401);
  });
});
