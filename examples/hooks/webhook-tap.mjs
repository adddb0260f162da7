#!/usr/bin/env node
// An example tap hook over a webhook, written against docs/hooks.md only. It checks the
// signature when given the secret (refusing a timestamp more than 5 minutes off), answers
// `describe` and `status`, and appends each tap event to --log as a JSON line.
//
//   node examples/hooks/webhook-tap.mjs --port 0 [--log /tmp/tap.jsonl] [--secret S] [--sleep-ms N]
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { appendFileSync } from 'node:fs';

const args = new Map();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const logPath = args.get('log');
const secret = args.get('secret') ?? '';
const sleepMs = Number(args.get('sleep-ms') ?? 0);
let settings = {};
let settingsVersion = 0;

function signedOk(req, body) {
  if (secret === '') return true;
  const timestamp = Number(req.headers['x-gateway-hook-timestamp']);
  if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  const given = Buffer.from(String(req.headers['x-gateway-hook-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const body = Buffer.concat(parts).toString('utf8');
    if (!signedOk(req, body)) {
      res.writeHead(401).end();
      return;
    }
    const message = JSON.parse(body);
    const reply = (payload) => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload)), sleepMs);
    if (logPath) appendFileSync(logPath, JSON.stringify(message) + '\n');
    switch (message.type) {
      case 'configure':
        settings = message.settings ?? {};
        settingsVersion = message.settings_version ?? 0;
        return reply({ type: 'configure', id: message.id, ok: true });
      case 'describe':
        return reply({ type: 'describe', id: message.id, name: 'example-webhook-tap', version: '1.0.0', schema: { type: 'object' } });
      case 'status':
        return reply({ type: 'status', id: message.id, settings, settings_version: settingsVersion, metrics: [] });
      default:
        return reply({ type: message.type, id: message.id });
    }
  });
});
server.listen(Number(args.get('port') ?? 0), '127.0.0.1', () => console.log(JSON.stringify({ webhook_tap: 'listening', url: `http://127.0.0.1:${server.address().port}/` })));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
