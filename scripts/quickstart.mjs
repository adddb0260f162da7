#!/usr/bin/env node
// `make run`: starts the gateway on the shipped config/ (sqlite store under var/).
// - GATEWAY_ADMIN_TOKEN and GATEWAY_SIGNING_KEY are generated once into var/quickstart-secrets.json
//   (git-ignored) when they are not set in the environment.
// - With no vendor key in the environment the bundled mock provider is started on
//   127.0.0.1:9000 and config/gateway.yaml routes to it; with OPENAI_API_KEY, ANTHROPIC_API_KEY
//   or GEMINI_API_KEY set, config/vendors.yaml routes to the real vendors instead.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const varDir = join(root, 'var');
mkdirSync(varDir, { recursive: true });

const secretsPath = join(varDir, 'quickstart-secrets.json');
let secrets = existsSync(secretsPath) ? JSON.parse(readFileSync(secretsPath, 'utf8')) : null;
if (secrets === null) {
  secrets = {
    GATEWAY_ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    GATEWAY_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }),
  };
  writeFileSync(secretsPath, JSON.stringify(secrets, null, 2), { mode: 0o600 });
}
const env = { ...process.env };
for (const [name, value] of Object.entries(secrets)) if (!env[name]) env[name] = value;

const vendorKeys = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY'].filter((k) => env[k]);
const useVendors = vendorKeys.length > 0;
const configPath = join(root, 'config', useVendors ? 'vendors.yaml' : 'gateway.yaml');
const cli = join(root, 'dist', 'src', 'cli.js');
const children = [];

function start(args, label) {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`quickstart: ${label} exited (${signal ?? code}); stopping`);
      stopAll(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

let stopping = false;
function stopAll(code) {
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

if (!useVendors) start(['mock-provider', '--port', '9000'], 'mock provider');
start(['--config', configPath], 'gateway');

const adminToken = env.GATEWAY_ADMIN_TOKEN;
const adminUrl = 'http://127.0.0.1:8081/api/v1/admin';

/** Waits for the admin listener, then mints a first virtual key (auth.chain is [keys]). */
async function mintFirstKey() {
  const headers = { 'x-admin-token': adminToken, 'content-type': 'application/json' };
  for (let i = 0; i < 100 && !stopping; i++) {
    try {
      const info = await fetch(`${adminUrl}/info`, { headers });
      if (info.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const res = await fetch(`${adminUrl}/keys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'quickstart', allowed_pools: ['*'] }),
  });
  if (!res.ok) throw new Error(`minting the first key failed: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

mintFirstKey().then(
  (key) => {
    console.log(`
  gateway:   http://127.0.0.1:8080   (config: ${configPath.replace(root + '/', '')}${useVendors ? `, vendors: ${vendorKeys.join(', ')}` : ', upstream: bundled mock provider'})
  admin:     ${adminUrl}   (x-admin-token: ${adminToken})
  secrets:   var/quickstart-secrets.json
  first key: ${key.id} (minted now; its secret is shown once, below)

  try it:
    curl -s http://127.0.0.1:8080/v1/chat/completions -H 'content-type: application/json' \\
      -H 'authorization: Bearer ${key.secret}' \\
      -d '{"model":"default","messages":[{"role":"user","content":"Hello!"}]}'

  more keys: curl -s -X POST ${adminUrl}/keys -H 'x-admin-token: ${adminToken}' \\
      -H 'content-type: application/json' -d '{"name":"me","allowed_pools":["*"]}'
`);
  },
  (err) => {
    if (!stopping) console.error(`quickstart: ${err.message}`);
  },
);
