// The README's snippets, read out of README.md and run as they stand against a real gateway on
// a fresh copy of the shipped config/ (its providers pointed at the mock): the group-and-key
// snippet with sh and curl (in the copy's folder, so `cat var/admin-token` reads the token the
// gateway made), then every framework snippet with the key it minted: the AI SDK providers,
// LangChain's chat models and the Agents SDK with node, boto3 with python3, the AWS CLI with sh.
// Only the addresses change (127.0.0.1:8080 / :8081 to the test gateway's ports). Each must
// print the mock's answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startMockProvider, type MockServer } from '../../src/mock/server.js';
import { startGateway, type RunningGateway } from '../helpers/gateway.js';
import { registerSecret } from '../helpers/secret-scan.js';

const run = promisify(execFile);
// Compiled to dist/test/integration/: the repository root is three levels up.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ANSWER = /The quick brown fox jumps/;

/** The fenced block after `<!-- checked: name -->` in README.md, with its language. */
function snippet(name: string): { lang: string; code: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = new RegExp(`<!-- checked: ${name} -->\\n\`\`\`(\\w+)\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(readme);
  assert.ok(m !== null, `README.md has no snippet "${name}"`);
  return { lang: m[1]!, code: m[2]! };
}

const FRAMEWORKS = [
  'ai-sdk-openai',
  'ai-sdk-anthropic',
  'ai-sdk-google',
  'ai-sdk-bedrock',
  'ai-sdk-ollama',
  'langchain-openai',
  'langchain-anthropic',
  'langchain-google',
  'langchain-bedrock',
  'langchain-ollama',
  'agents-sdk',
  'boto3',
  'aws-cli',
] as const;

describe("the README's snippets, run against a real gateway", () => {
  let mock: MockServer;
  let gw: RunningGateway;
  let root = '';
  /** Where the JavaScript snippets are written: inside the repository, so their imports resolve from node_modules. */
  let scripts = '';
  let env: NodeJS.ProcessEnv = {};

  const local = (code: string): string =>
    code.replaceAll('http://127.0.0.1:8080', gw.url).replaceAll('http://127.0.0.1:8081', gw.adminUrl.replace(/\/api\/v1\/admin$/, ''));

  before(async () => {
    mock = await startMockProvider({ port: 0 });
    root = mkdtempSync(join(tmpdir(), 'gw-readme-'));
    cpSync(join(ROOT, 'config'), join(root, 'config'), { recursive: true });
    const providers = join(root, 'config', 'providers.yaml');
    writeFileSync(providers, readFileSync(providers, 'utf8').replaceAll('http://127.0.0.1:9000', mock.url));
    const configPath = join(root, 'config', 'gateway.yaml');
    gw = await startGateway({ dir: join(root, 'config'), configPath }, { env: { GATEWAY_ADMIN_TOKEN: undefined, GATEWAY_SIGNING_KEY: undefined } });
    registerSecret(readFileSync(join(root, 'var', 'admin-token'), 'utf8').trim());
    scripts = mkdtempSync(join(ROOT, 'dist', 'readme-snippets-'));
  });

  after(async () => {
    await gw?.stop();
    await mock?.close();
    for (const dir of [root, scripts]) if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('makes a group with limits and a rate card, and binds a key to it (sh + curl)', async () => {
    const { lang, code } = snippet('group');
    assert.equal(lang, 'sh');
    const { stdout } = await run('sh', ['-e', '-c', local(code)], { cwd: root, timeout: 60_000 });
    const [group, key] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(group!.name, 'team-a');
    assert.deepEqual(
      (group!.limits as { metric: string }[]).map((l) => l.metric),
      ['requests', 'budget'],
    );
    assert.equal((group!.rate_card as { model: string }[])[0]!.model, 'mock-chat');
    assert.equal(key!.name, 'alice');
    const secret = String(key!.secret);
    for (const s of [secret, String(key!.aws_secret_access_key)]) registerSecret(s);
    env = {
      ...process.env,
      GATEWAY_KEY: secret,
      AWS_ACCESS_KEY_ID: String(key!.aws_access_key_id),
      AWS_SECRET_ACCESS_KEY: String(key!.aws_secret_access_key),
      AWS_SESSION_TOKEN: undefined,
      AWS_PROFILE: undefined,
    };
    const token = readFileSync(join(root, 'var', 'admin-token'), 'utf8').trim();
    const view = (await (await request(`${gw.adminUrl}/keys/${String(key!.id)}`, { headers: { 'x-admin-token': token } })).body.json()) as { name: string };
    assert.equal(view.name, 'alice');
  });

  for (const name of FRAMEWORKS) {
    it(`${name}: the snippet answers through the gateway with alice's key`, async () => {
      assert.ok(env.GATEWAY_KEY !== undefined, 'the group snippet ran first and minted the key');
      const { lang, code } = snippet(name);
      let out: { stdout: string; stderr: string };
      if (lang === 'js') {
        const file = join(scripts, `${name}.mjs`);
        writeFileSync(file, local(code));
        out = await run(process.execPath, [file], { env, timeout: 90_000 });
      } else if (lang === 'python') {
        out = await run('python3', ['-c', local(code)], { env, timeout: 90_000 });
      } else {
        assert.equal(lang, 'sh');
        out = await run('sh', ['-e', '-c', local(code)], { env, timeout: 90_000 });
      }
      assert.match(out.stdout, ANSWER, `${name} printed:\n${out.stdout}\n${out.stderr}`);
    });
  }

  it("the requests were alice's: counted against team-a", async () => {
    const token = readFileSync(join(root, 'var', 'admin-token'), 'utf8').trim();
    const usage = (await (await request(`${gw.adminUrl}/usage`, { headers: { 'x-admin-token': token } })).body.json()) as {
      by_key: { name: string | null; requests: number }[];
    };
    // Usage reaches the store on the flush interval; the governance counters say it at once.
    const metrics = await (await request(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${env.GATEWAY_KEY}` } })).body.text();
    assert.match(metrics, /gateway_bucket_spend_cents\{bucket="group:team-a@month",group="team-a",window="month"\} [0-9.]+/);
    assert.ok(
      usage.by_key.every((row) => row.name === null || row.name === 'alice'),
      JSON.stringify(usage.by_key),
    );
  });
});
