#!/usr/bin/env node
// An example gate hook over a unix socket, written against docs/hooks.md only (any msgpack
// library would do; this one uses msgpackr). It orders a pool's members by its `order`
// setting, and for the tests can also abstain, reject, sleep past the deadline, or rewrite
// the prompt. Every message it receives is appended to --log as a JSON line.
//
//   node examples/hooks/socket-gate.mjs --socket /tmp/gate.sock [--log /tmp/gate.jsonl]
//
// Settings (sent by the gateway with `configure`, kept per connection: several hooks may share
// this one process, each on its own connection):
//   order:   ["lane-b", "lane-a"]   members named here go first, in this order
//   mode:    "order" | "abstain" | "reject" | "sleep"
//   status, message:                the refusal of mode "reject" (default 403)
//   sleep_ms:                        how long mode "sleep" waits before answering
//   rewrite: "text"                  with prompt access rw: replace the last user message
//   report:  {...}                   report these settings in `status` instead of the real ones
//   tap_sleep_ms:                    as a tap: block this long on every event (a tap too slow to
//                                    keep up; the bench's slow-tap scenario uses 1000)
import { createServer } from 'node:net';
import { appendFileSync, rmSync } from 'node:fs';
import { Packr, Unpackr } from 'msgpackr';

const args = new Map();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const socketPath = args.get('socket');
const logPath = args.get('log');
if (!socketPath) {
  console.error('usage: socket-gate.mjs --socket PATH [--log FILE]');
  process.exit(2);
}

const packr = new Packr({ useRecords: false });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true });

function frame(message) {
  const body = packr.pack(message);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

function answer(message, state) {
  const settings = state.settings;
  switch (message.type) {
    case 'configure':
      state.settings = message.settings ?? {};
      state.settingsVersion = message.settings_version ?? 0;
      return { type: 'configure', id: message.id, ok: true };
    case 'describe':
      return {
        type: 'describe',
        id: message.id,
        name: 'example-socket-gate',
        version: '1.0.0',
        schema: {
          type: 'object',
          properties: {
            order: { type: 'array', items: { type: 'string' } },
            mode: { enum: ['order', 'abstain', 'reject', 'sleep'] },
            status: { type: 'integer' },
            message: { type: 'string' },
            sleep_ms: { type: 'integer' },
            rewrite: { type: 'string' },
            tap_sleep_ms: { type: 'integer' },
          },
        },
      };
    case 'status':
      return {
        type: 'status',
        id: message.id,
        settings: settings.report ?? settings,
        settings_version: state.settingsVersion,
        metrics: [{ name: 'decisions', type: 'counter', value: decisions }],
      };
    case 'gate':
      decisions++;
      return decide(message, settings);
    default:
      return message.type === 'tap' ? null : { type: 'error', id: message.id, message: `unknown type ${message.type}` };
  }
}

let decisions = 0;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function decide(message, settings) {
  const mode = settings.mode ?? 'order';
  if (mode === 'abstain') return { type: 'gate', id: message.id, decision: 'abstain' };
  if (mode === 'reject') return { type: 'gate', id: message.id, decision: 'reject', status: settings.status ?? 403, message: settings.message ?? 'refused by the example gate' };
  const reply = { type: 'gate', id: message.id, decision: 'order' };
  const preferred = Array.isArray(settings.order) ? settings.order : [];
  const members = message.members ?? [];
  reply.order = [...preferred.filter((m) => members.includes(m)), ...members.filter((m) => !preferred.includes(m))];
  const prompt = message.request?.prompt;
  if (typeof settings.rewrite === 'string' && prompt && Array.isArray(prompt.messages)) {
    const messages = prompt.messages.map((m) => ({ ...m }));
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].role === 'user') {
        messages[i].content = settings.rewrite;
        break;
      }
    }
    reply.prompt = { ...prompt, messages };
  }
  return reply;
}

rmSync(socketPath, { force: true });
const server = createServer((conn) => {
  let buffered = Buffer.alloc(0);
  const state = { settings: {}, settingsVersion: 0 };
  conn.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 4) {
      const length = buffered.readUInt32BE(0);
      if (buffered.length < 4 + length) break;
      const message = unpackr.unpack(buffered.subarray(4, 4 + length));
      buffered = buffered.subarray(4 + length);
      if (logPath) appendFileSync(logPath, JSON.stringify(message) + '\n');
      const reply = answer(message, state);
      // A blocking wait, not a timer: the process stops reading, so the gateway's writes back up.
      if (message.type === 'tap' && state.settings.tap_sleep_ms > 0) Atomics.wait(SLEEPER, 0, 0, state.settings.tap_sleep_ms);
      if (reply === null) continue;
      if (message.type === 'gate' && state.settings.mode === 'sleep') setTimeout(() => conn.write(frame(reply)), state.settings.sleep_ms ?? 5000);
      else conn.write(frame(reply));
    }
  });
  conn.on('error', () => {});
});
server.listen(socketPath, () => console.log(JSON.stringify({ socket_gate: 'listening', socket: socketPath })));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
