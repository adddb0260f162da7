// One chat call per ingress protocol through the vendor's own SDK with a given gateway key,
// and what each SDK's error says (status, error type, Retry-After where the SDK exposes
// headers), so the tests can assert the spec's outcomes table protocol by protocol.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { ProtocolName } from '../../../src/shared/model/types.js';

export const PROTOCOLS: readonly ProtocolName[] = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock', 'ollama'];

export interface Failure {
  status: number;
  /** The error type the SDK surfaced (OpenAI/Anthropic `type`, Gemini `status`, Bedrock exception name, Ollama: the message). */
  type: string;
  message: string;
  /** Retry-After when the SDK exposes the headers (OpenAI, Anthropic), else undefined. */
  retryAfter: string | undefined;
}

/** Bedrock with a gateway key as a bearer token (its "API key" mode). */
function bedrockWithKey(url: string, key: string): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    endpoint: url,
    region: 'us-east-1',
    token: { token: key },
    authSchemePreference: ['httpBearerAuth'],
    requestHandler: new NodeHttpHandler({ requestTimeout: 20_000 }),
    maxAttempts: 1,
  });
}

/** One non-stream chat turn on `model` (default: the protocol's own pool). */
export async function chatAs(protocol: ProtocolName, url: string, key: string, model = `pool-${protocol}`): Promise<void> {
  switch (protocol) {
    case 'openai':
      await new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
      return;
    case 'responses':
      await new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 }).responses.create({ model, input: 'hi' });
      return;
    case 'anthropic':
      await new Anthropic({ baseURL: url, apiKey: key, maxRetries: 0 }).messages.create({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
      return;
    case 'gemini':
      await new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } }).models.generateContent({ model, contents: 'hi' });
      return;
    case 'bedrock':
      await bedrockWithKey(url, key).send(new ConverseCommand({ modelId: model, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }));
      return;
    case 'ollama':
      await new Ollama({ host: url, headers: { Authorization: `Bearer ${key}` } }).chat({ model, messages: [{ role: 'user', content: 'hi' }], stream: false });
      return;
  }
}

function headerOf(headers: unknown, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const v = (headers as Record<string, string>)[name];
  return typeof v === 'string' ? v : undefined;
}

/** The call must fail; what its SDK reported. */
export async function refusedAs(protocol: ProtocolName, url: string, key: string, model?: string): Promise<Failure> {
  try {
    await chatAs(protocol, url, key, model);
  } catch (err) {
    return failureOf(protocol, err);
  }
  throw new Error(`${protocol}: the call succeeded but a refusal was expected`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function failureOf(protocol: ProtocolName, err: any): Failure {
  switch (protocol) {
    case 'openai':
    case 'responses':
      return { status: err.status, type: err.type ?? err.error?.type, message: err.message, retryAfter: headerOf(err.headers, 'retry-after') };
    case 'anthropic':
      return { status: err.status, type: err.error?.error?.type ?? err.type, message: err.message, retryAfter: headerOf(err.headers, 'retry-after') };
    case 'gemini': {
      let type = '';
      try {
        type = JSON.parse(err.message).error.status;
      } catch {
        type = /"status":\s*"([A-Z_]+)"/.exec(err.message)?.[1] ?? '';
      }
      return { status: err.status, type, message: err.message, retryAfter: undefined };
    }
    case 'bedrock':
      return { status: err.$metadata?.httpStatusCode, type: err.name, message: err.message, retryAfter: undefined };
    case 'ollama':
      return { status: err.status_code, type: '', message: err.error ?? err.message, retryAfter: undefined };
  }
}
