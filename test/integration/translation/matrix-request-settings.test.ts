// The request settings modern clients send, on all 36 (ingress, lane) pairs, stream and not,
// through the vendors' SDKs (native-call.ts) and the real gateway: structured output (a JSON
// schema, JSON mode), reasoning settings, prompt-cache markers, tool choice and parallel tool
// calls. Each case checks what reached the lane, in the lane's own field, at the mock (its
// record of the last upstream body), and what the caller got back: JSON that parses against
// the schema, the forced tool's call. Same-protocol pairs are passthrough (the caller's own
// field arrives as sent). Runs one request at a time: the mock keeps only the last body.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../src/shared/model/types.js';
import { nativeCall, type NativeAnswer } from '../../helpers/clients/native-call.js';
import { suiteStack } from '../../helpers/clients/stack.js';
import {
  CACHE_FIELDS,
  EXPECTED_REASONING,
  EXPECTED_TOOL_CHOICE,
  FORECAST,
  FORECAST_FROM_GEMINI,
  FORECAST_GEMINI,
  JSON_MODE_FIELDS,
  MARKER_FIELD,
  REASONING_FIELDS,
  SCHEMA_FIELDS,
  laneFormat,
  laneMarkers,
  laneReasoning,
  laneToolChoice,
  toolChoiceFields,
  type Choice,
} from './request-settings-fields.js';

const MODES = [false, true] as const;
const CHOICES: readonly Choice[] = ['named', 'none', 'required', 'parallel_off'];

const stack = suiteStack({ workers: 1 });

/** The body the lane last received, parsed, and its text. */
async function laneBody(): Promise<{ body: Record<string, any>; text: string }> {
  const res = await fetch(`${stack.mock.url}/mock/last-request`);
  const last = (await res.json()) as { body: string };
  return { body: JSON.parse(last.body) as Record<string, any>, text: last.body };
}

/** A fresh mark at the mock, so that a request that never reached the lane is not read as one that did. */
function forgetLast(): void {
  stack.mock.reset();
}

function call(
  ingress: ProtocolName,
  lane: ProtocolName,
  stream: boolean,
  fields: Record<string, unknown>,
  prompt = 'Forecast for Paris?',
): Promise<NativeAnswer> {
  return nativeCall(ingress, stack.gateway.url, { model: `pool-${lane}`, stream, prompt, fields });
}

function validates(schema: Record<string, unknown>, text: string): boolean {
  return z.fromJSONSchema(schema as never).safeParse(JSON.parse(text)).success;
}

/** The HTTP status of an SDK's error, whichever SDK threw it. */
function statusOf(err: unknown): number | undefined {
  const e = err as { status?: number; status_code?: number; $metadata?: { httpStatusCode?: number }; code?: number };
  return e.status ?? e.status_code ?? e.$metadata?.httpStatusCode ?? (typeof e.code === 'number' ? e.code : undefined);
}

function pick(value: unknown, like: unknown): unknown {
  if (typeof value !== 'object' || value === null || typeof like !== 'object' || like === null) return value;
  return Object.fromEntries(Object.keys(like).map((k) => [k, (value as Record<string, unknown>)[k]]));
}

/** The schema the lane should see: the caller's own on a passthrough, else the one the gateway reads (closed where the lane closes objects). */
function expectedLaneSchema(ingress: ProtocolName, lane: ProtocolName): unknown {
  if (ingress === lane) return ingress === 'gemini' ? FORECAST_GEMINI : FORECAST;
  if (ingress !== 'gemini') return FORECAST;
  return lane === 'anthropic' || lane === 'bedrock' ? FORECAST : FORECAST_FROM_GEMINI;
}

for (const ingress of PROTOCOL_NAMES) {
  describe(`ingress ${ingress}`, () => {
    for (const lane of PROTOCOL_NAMES) {
      for (const stream of MODES) {
        const label = `${ingress} -> ${lane} ${stream ? 'stream' : 'non-stream'}`;

        it(`${label}: a JSON schema reaches the lane's own field; the answer parses against it`, async () => {
          const answer = await call(ingress, lane, stream, SCHEMA_FIELDS[ingress]);
          const { body } = await laneBody();
          const format = laneFormat(lane, body);
          assert.ok(format !== null && format.mode === 'schema', `${lane} got no schema: ${JSON.stringify(body).slice(0, 400)}`);
          assert.deepEqual(format.schema, expectedLaneSchema(ingress, lane));
          if (ingress !== lane && (lane === 'openai' || lane === 'responses')) {
            // strict as the caller said, else whether the schema fits OpenAI's strict mode.
            assert.equal(format.strict, ingress !== 'gemini');
          }
          assert.deepEqual(answer.toolCalls, []);
          assert.ok(validates(FORECAST, answer.text), `answer ${answer.text}`);
        });

        const jsonMode = JSON_MODE_FIELDS[ingress];
        if (jsonMode !== undefined) {
          it(`${label}: JSON mode reaches the lane (an output tool where the lane has only a schema mode); the answer is a JSON object`, async () => {
            const answer = await call(ingress, lane, stream, jsonMode);
            const { body } = await laneBody();
            const expected = lane === 'anthropic' || lane === 'bedrock' ? 'output-tool' : 'json';
            assert.equal(laneFormat(lane, body)?.mode, expected);
            assert.deepEqual(answer.toolCalls, []);
            const parsed: unknown = JSON.parse(answer.text);
            assert.ok(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), answer.text);
          });
        }

        it(`${label}: reasoning settings arrive mapped`, async () => {
          const answer = await call(ingress, lane, stream, REASONING_FIELDS[ingress]);
          const { body } = await laneBody();
          assert.deepEqual(laneReasoning(lane, body), EXPECTED_REASONING[ingress][lane]);
          assert.ok(answer.text.length > 0);
        });

        const cache = CACHE_FIELDS[ingress];
        if (cache !== undefined) {
          it(`${label}: prompt-cache markers become the lane's own, or are dropped where it caches by itself`, async () => {
            await call(ingress, lane, stream, cache);
            const { body, text } = await laneBody();
            if (lane === ingress) {
              assert.ok(text.includes(MARKER_FIELD[lane]!), 'passthrough keeps the markers');
            } else if (lane === 'anthropic' || lane === 'bedrock') {
              const ttl = ingress === 'anthropic' || ingress === 'bedrock' ? { ttl: '1h' } : {};
              const marker = lane === 'anthropic' ? { type: 'ephemeral' } : { type: 'default' };
              assert.deepEqual(laneMarkers(lane, body), { system: marker, first: { ...marker, ...ttl } });
            } else {
              for (const field of ['cache_control', 'cachePoint', 'prompt_cache_breakpoint']) assert.ok(!text.includes(field), `${field} reached ${lane}`);
            }
          });
        }

        for (const choice of CHOICES) {
          const fields = toolChoiceFields(ingress, choice);
          if (fields === undefined) continue; // the caller's protocol cannot say it
          const expected = EXPECTED_TOOL_CHOICE[choice][lane];
          const refused = expected === 'refused' && ingress !== lane;
          it(`${label}: tool choice ${choice} ${refused ? 'is refused with a 400' : 'reaches the lane'}`, async () => {
            forgetLast();
            if (refused) {
              await assert.rejects(call(ingress, lane, stream, fields, 'What time is it?'), (err: unknown) => statusOf(err) === 400);
              assert.equal(stack.mock.stats().requests, 0, 'a refused request never reaches the lane');
              return;
            }
            const answer = await call(ingress, lane, stream, fields, 'What time is it?');
            const { body } = await laneBody();
            if (ingress !== lane) assert.deepEqual(pick(laneToolChoice(lane, body), expected), expected);
            if (choice === 'named')
              assert.deepEqual(
                answer.toolCalls.map((t) => t.name),
                ['get_time'],
              );
            else if (choice === 'none') assert.deepEqual(answer.toolCalls, []);
            else assert.ok(answer.toolCalls.length > 0, 'a tool call');
          });
        }
      }
    }
  });
}
