#!/usr/bin/env node
// `make run`: starts the gateway on the shipped config/ (sqlite store under var/).
// - The admin token and the key-signing key are made by the gateway itself at first boot into
//   var/admin-token and var/signing-key.pem (git-ignored; the config's `generated` secret module)
//   unless GATEWAY_ADMIN_TOKEN / GATEWAY_SIGNING_KEY are set. A var/quickstart-secrets.json from
//   an earlier quickstart is still read, so its keys keep verifying.
// - It mints a first key for curl and one for Prometheus (var/prometheus-key), and prints the
//   curl line and the scrape config for /metrics.
// - With no vendor key in the environment the bundled mock provider is started on
//   127.0.0.1:9000 and config/gateway.yaml routes to it; with OPENAI_API_KEY, ANTHROPIC_API_KEY
//   or GEMINI_API_KEY set, config/vendors.yaml routes to the real vendors instead.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const varDir = join(root, 'var');
mkdirSync(varDir, { recursive: true });

// An earlier quickstart kept its secrets here: keep using them (keys minted then stay valid).
const legacySecretsPath = join(varDir, 'quickstart-secrets.json');
const legacy = existsSync(legacySecretsPath) ? JSON.parse(readFileSync(legacySecretsPath, 'utf8')) : {};
const env = { ...process.env };
for (const [name, value] of Object.entries(legacy)) if (!env[name]) env[name] = value;
const adminTokenPath = join(varDir, 'admin-token');
const prometheusKeyPath = join(varDir, 'prometheus-key');

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

const adminUrl = 'http://127.0.0.1:8081/api/v1/admin';
let adminToken = env.GATEWAY_ADMIN_TOKEN ?? '';

/** The admin token: the environment's, else the one the gateway made at first boot. */
function currentAdminToken() {
  if (adminToken === '' && existsSync(adminTokenPath)) adminToken = readFileSync(adminTokenPath, 'utf8').trim();
  return adminToken;
}

async function mintKey(name) {
  const res = await fetch(`${adminUrl}/keys`, {
    method: 'POST',
    headers: { 'x-admin-token': currentAdminToken(), 'content-type': 'application/json' },
    body: JSON.stringify({ name, allowed_pools: ['*'] }),
  });
  if (!res.ok) throw new Error(`minting the key "${name}" failed: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** Waits for the admin listener, then mints a first virtual key (auth.chain is [keys]) and Prometheus's. */
async function mintFirstKeys() {
  for (let i = 0; i < 100 && !stopping; i++) {
    try {
      const info = await fetch(`${adminUrl}/info`, { headers: { 'x-admin-token': currentAdminToken() } });
      if (info.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const first = await mintKey('quickstart');
  const scraper = await mintKey('prometheus');
  writeFileSync(prometheusKeyPath, `${scraper.secret}\n`, { mode: 0o600 });
  return first;
}

mintFirstKeys().then(
  (key) => {
    console.log(`
  gateway:   http://127.0.0.1:8080   (config: ${configPath.replace(root + '/', '')}${useVendors ? `, vendors: ${vendorKeys.join(', ')}` : ', upstream: bundled mock provider'})
  admin:     ${adminUrl}   (x-admin-token: ${adminToken})
  secrets:   ${existsSync(legacySecretsPath) ? 'var/quickstart-secrets.json' : env.GATEWAY_ADMIN_TOKEN ? 'from the environment' : 'var/admin-token, var/signing-key.pem (made at first boot)'}
  first key: ${key.id} (minted now; its secret is shown once, below)

  try it:
    curl -s http://127.0.0.1:8080/v1/chat/completions -H 'content-type: application/json' \\
      -H 'authorization: Bearer ${key.secret}' \\
      -d '{"model":"default","messages":[{"role":"user","content":"Hello!"}]}'

  more keys: curl -s -X POST ${adminUrl}/keys -H 'x-admin-token: ${adminToken}' \\
      -H 'content-type: application/json' -d '{"name":"me","allowed_pools":["*"]}'

  metrics:   curl -s http://127.0.0.1:8080/metrics -H "authorization: Bearer $(cat ${prometheusKeyPath})"
  prometheus scrape config (the key minted for it is in ${prometheusKeyPath}):
    scrape_configs:
      - job_name: gateway
        metrics_path: /metrics
        authorization: { type: Bearer, credentials_file: ${prometheusKeyPath} }
        static_configs: [{ targets: ['127.0.0.1:8080'] }]
  dashboard: deploy/grafana/gateway.json (import into Grafana, pick that Prometheus)
`);
  },
  (err) => {
    if (!stopping) console.error(`quickstart: ${err.message}`);
  },
);
