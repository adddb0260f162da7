// SigV4 as each AWS client signs it, with the AWS credential a mint issued: boto3 and the AWS
// CLI (neither signs x-amz-content-sha256), aws4fetch with the header left out, set to
// UNSIGNED-PAYLOAD and set to the body's hash, @ai-sdk/amazon-bedrock (aws4fetch inside) and the
// AWS JS SDK (signs the body's hash). Converse and ConverseStream, on a pool whose name holds a
// colon as Bedrock model ids do (the path is then percent-encoded, and signed encoded twice).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { AwsClient } from 'aws4fetch';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { generateText, streamText } from 'ai';
import { awsEnv, governedSuite, type AwsCreds } from './harness.js';

const run = promisify(execFile);
/** A pool named as Bedrock names a model: the colon is sent as %3A. */
const COLON_POOL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const MOCK_TEXT = 'The quick brown fox jumps';
const BODY = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });

/** boto3 in a child process: converse, then converse_stream; prints one JSON line each. */
const BOTO3_SCRIPT = `
import json, sys, boto3, botocore.config
url, model = sys.argv[1], sys.argv[2]
c = boto3.client('bedrock-runtime', endpoint_url=url, config=botocore.config.Config(retries={'max_attempts': 1}))
messages = [{'role': 'user', 'content': [{'text': 'hi'}]}]
r = c.converse(modelId=model, messages=messages)
print(json.dumps({'text': r['output']['message']['content'][0]['text'], 'usage': r['usage']}))
text, kinds = '', []
for event in c.converse_stream(modelId=model, messages=messages)['stream']:
    kinds.append(next(iter(event)))
    text += event.get('contentBlockDelta', {}).get('delta', {}).get('text', '')
print(json.dumps({'text': text, 'kinds': kinds}))
`;

describe('SigV4 as AWS clients sign it', () => {
  const g = governedSuite({ workers: 1, extraPools: { [COLON_POOL]: { members: [{ model: 'lane-bedrock', weight: 1 }] } } });
  let creds: AwsCreds;

  before(async () => {
    creds = (await g.admin.mint({ name: 'aws-clients', issue_aws_credential: true })) as AwsCreds & { id: string };
  });

  for (const model of ['pool-bedrock', COLON_POOL]) {
    it(`boto3: converse and converse_stream (${model})`, async () => {
      const { stdout } = await run('python3', ['-c', BOTO3_SCRIPT, g.gw.url, model], { env: awsEnv(creds), timeout: 60_000 });
      const [plain, streamed] = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.equal(plain!.text, MOCK_TEXT);
      assert.deepEqual((plain!.usage as Record<string, number>).inputTokens, 12);
      assert.equal(streamed!.text, MOCK_TEXT);
      assert.deepEqual((streamed!.kinds as string[]).at(-1), 'metadata');
    });
  }

  /** `aws bedrock-runtime converse` of a "hi" on `model`, then `more` arguments. */
  const awsConverse = (model: string, env: NodeJS.ProcessEnv, more: string[] = []) =>
    run(
      'aws',
      [
        'bedrock-runtime',
        'converse',
        '--endpoint-url',
        g.gw.url,
        '--model-id',
        model,
        '--messages',
        JSON.stringify([{ role: 'user', content: [{ text: 'hi' }] }]),
        ...more,
      ],
      { env, timeout: 60_000 },
    );

  it('the AWS CLI: bedrock-runtime converse', async () => {
    // CLI v1 (the one on the image) has no converse-stream: it cannot read an event stream.
    const { stdout } = await awsConverse(COLON_POOL, awsEnv(creds), ['--output', 'json']);
    const out = JSON.parse(stdout) as { output: { message: { content: Array<{ text: string }> } } };
    assert.equal(out.output.message.content[0]!.text, MOCK_TEXT);
  });

  it("the AWS CLI with a wrong secret is refused in Bedrock's shape", async () => {
    const env = awsEnv({ ...creds, aws_secret_access_key: 'x'.repeat(40) });
    const failed = await awsConverse('pool-bedrock', env).then(
      () => null,
      (err: { stderr: string }) => err,
    );
    assert.ok(failed !== null, 'a wrong secret was accepted');
    assert.match(failed.stderr, /UnrecognizedClientException/);
  });

  const aws4 = (): AwsClient =>
    new AwsClient({ accessKeyId: creds.aws_access_key_id, secretAccessKey: creds.aws_secret_access_key, service: 'bedrock', region: 'us-east-1', retries: 0 });
  const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');
  const contentSha: Array<[string, (body: string) => Record<string, string>]> = [
    ['x-amz-content-sha256 not signed', () => ({})],
    ['x-amz-content-sha256: UNSIGNED-PAYLOAD', () => ({ 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' })],
    ['x-amz-content-sha256: the body hash', (body) => ({ 'x-amz-content-sha256': hashOf(body) })],
  ];
  for (const [label, extra] of contentSha) {
    it(`aws4fetch, ${label}`, async () => {
      const url = `${g.gw.url}/model/${encodeURIComponent(COLON_POOL)}/converse`;
      const res = await aws4().fetch(url, { method: 'POST', body: BODY, headers: { 'content-type': 'application/json', ...extra(BODY) } });
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.match(text, /The quick brown fox/);
    });
  }

  it("aws4fetch: a signed body hash that is not the body's is refused", async () => {
    const res = await aws4().fetch(`${g.gw.url}/model/pool-bedrock/converse`, {
      method: 'POST',
      body: BODY,
      headers: { 'content-type': 'application/json', 'x-amz-content-sha256': hashOf('something else') },
    });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('x-amzn-errortype'), 'UnrecognizedClientException');
  });

  it('@ai-sdk/amazon-bedrock: generateText and streamText', async () => {
    const bedrock = createAmazonBedrock({
      baseURL: g.gw.url,
      region: 'us-east-1',
      accessKeyId: creds.aws_access_key_id,
      secretAccessKey: creds.aws_secret_access_key,
      apiKey: undefined,
    });
    const plain = await generateText({ model: bedrock(COLON_POOL), prompt: 'hi', maxRetries: 0 });
    assert.equal(plain.text, MOCK_TEXT);
    const streamed = streamText({ model: bedrock('pool-bedrock'), prompt: 'hi', maxRetries: 0 });
    let text = '';
    for await (const piece of streamed.textStream) text += piece;
    assert.equal(text, MOCK_TEXT);
  });

  it('the AWS JS SDK: Converse and ConverseStream', async () => {
    const client = new BedrockRuntimeClient({
      endpoint: g.gw.url,
      region: 'us-east-1',
      maxAttempts: 1,
      credentials: { accessKeyId: creds.aws_access_key_id, secretAccessKey: creds.aws_secret_access_key },
      requestHandler: new NodeHttpHandler({ requestTimeout: 20_000 }),
    });
    const messages = [{ role: 'user' as const, content: [{ text: 'hi' }] }];
    const out = await client.send(new ConverseCommand({ modelId: COLON_POOL, messages }));
    assert.equal(out.output?.message?.content?.[0]?.text, MOCK_TEXT);
    const streamed = await client.send(new ConverseStreamCommand({ modelId: COLON_POOL, messages }));
    let text = '';
    for await (const event of streamed.stream!) text += event.contentBlockDelta?.delta?.text ?? '';
    assert.equal(text, MOCK_TEXT);
  });
});
