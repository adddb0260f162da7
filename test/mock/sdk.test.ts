// The vendors' own SDKs accept what the mock writes: each is pointed at the mock with its
// base-URL option and must parse text, tool calls, usage and streams without complaint.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Ollama } from 'ollama';
import { mockText } from '../../src/mock/content.js';
import { WEATHER_TOOL_SCHEMA } from './wire.js';
import { suiteMock } from '../helpers/clients/stack.js';

const TEXT = mockText(5);

describe('mock provider with the vendor SDKs', () => {
  const mock = suiteMock({ cache_read_tokens: 3 });

  it('openai chat: text, tool call, stream with usage', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${mock.url}/v1`, maxRetries: 0 });
    const text = await client.chat.completions.create({ model: 'gpt-m', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(text.choices[0]!.message.content, TEXT);
    assert.equal(text.usage?.prompt_tokens, 15);
    assert.equal(text.usage?.prompt_tokens_details?.cached_tokens, 3);
    const tool = await client.chat.completions.create({
      model: 'gpt-m',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL_SCHEMA } }],
    });
    const call = tool.choices[0]!.message.tool_calls?.[0];
    assert.equal(tool.choices[0]!.finish_reason, 'tool_calls');
    assert.ok(call && call.type === 'function');
    assert.deepEqual(JSON.parse(call.function.arguments), { location: 'Paris' });
    const stream = client.chat.completions.stream({
      model: 'gpt-m',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL_SCHEMA } }],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    assert.equal(final.choices[0]!.message.tool_calls?.[0]?.id, 'call_mock_1');
    assert.equal(final.usage?.completion_tokens, 5);
  });

  it('openai responses: text, function call, stream', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${mock.url}/v1`, maxRetries: 0 });
    const text = await client.responses.create({ model: 'gpt-r', input: 'hi' });
    assert.equal(text.output_text, TEXT);
    assert.equal(text.usage?.input_tokens_details.cached_tokens, 3);
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: WEATHER_TOOL_SCHEMA, strict: false }];
    const stream = client.responses.stream({ model: 'gpt-r', input: 'weather?', tools });
    const final = await stream.finalResponse();
    const item = final.output[0];
    assert.equal(item?.type, 'function_call');
    assert.equal(item?.type === 'function_call' && item.arguments, '{"location":"Paris"}');
    const textStream = client.responses.stream({ model: 'gpt-r', input: 'hi' });
    assert.equal((await textStream.finalResponse()).output_text, TEXT);
  });

  it('anthropic: message, tool use, stream helper', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: mock.url, maxRetries: 0 });
    const msg = await client.messages.create({ model: 'claude-m', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(msg.content[0]!.type === 'text' && msg.content[0].text, TEXT);
    assert.equal(msg.usage.input_tokens, 12);
    assert.equal(msg.usage.cache_read_input_tokens, 3);
    const stream = client.messages.stream({
      model: 'claude-m',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }],
    });
    const final = await stream.finalMessage();
    assert.equal(final.stop_reason, 'tool_use');
    const block = final.content[0];
    assert.ok(block?.type === 'tool_use');
    assert.deepEqual(block.input, { location: 'Paris' });
    assert.equal(final.usage.output_tokens, 5);
  });

  it('gemini: generateContent and stream', async () => {
    const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: mock.url } });
    const res = await client.models.generateContent({ model: 'gemini-m', contents: 'hi' });
    assert.equal(res.text, TEXT);
    assert.equal(res.usageMetadata?.promptTokenCount, 15);
    assert.equal(res.usageMetadata?.cachedContentTokenCount, 3);
    const tool = await client.models.generateContent({
      model: 'gemini-m',
      contents: 'weather?',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather' }] }] },
    });
    assert.deepEqual(tool.functionCalls?.[0]?.args, { location: 'Paris' });
    let streamed = '';
    let usage: number | undefined;
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-m', contents: 'hi' })) {
      streamed += chunk.text ?? '';
      usage = chunk.usageMetadata?.candidatesTokenCount ?? usage;
    }
    assert.equal(streamed, TEXT);
    assert.equal(usage, 5);
  });

  it('bedrock: converse and converse-stream over HTTP/1.1', async () => {
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: mock.url,
      credentials: { accessKeyId: 'AKIDMOCK', secretAccessKey: 'secret' },
      requestHandler: new NodeHttpHandler(),
      maxAttempts: 1,
    });
    const modelId = 'anthropic.claude-m-v1:0';
    const res = await client.send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }));
    assert.equal(res.output?.message?.content?.[0]?.text, TEXT);
    assert.equal(res.usage?.inputTokens, 12);
    assert.equal(res.usage?.cacheReadInputTokens, 3);
    const stream = await client.send(
      new ConverseStreamCommand({
        modelId,
        messages: [{ role: 'user', content: [{ text: 'weather?' }] }],
        toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: WEATHER_TOOL_SCHEMA } } }] },
      }),
    );
    let input = '';
    let stop: string | undefined;
    let toolUseId: string | undefined;
    let outputTokens: number | undefined;
    for await (const event of stream.stream!) {
      toolUseId ??= event.contentBlockStart?.start?.toolUse?.toolUseId;
      input += event.contentBlockDelta?.delta?.toolUse?.input ?? '';
      stop ??= event.messageStop?.stopReason;
      outputTokens ??= event.metadata?.usage?.outputTokens;
    }
    assert.equal(toolUseId, 'tooluse_mock_1');
    assert.deepEqual(JSON.parse(input), { location: 'Paris' });
    assert.equal(stop, 'tool_use');
    assert.equal(outputTokens, 5);
    client.destroy();
  });

  it('ollama: chat and streamed chat', async () => {
    const client = new Ollama({ host: mock.url });
    const res = await client.chat({ model: 'llama-m', messages: [{ role: 'user', content: 'hi' }], stream: false });
    assert.equal(res.message.content, TEXT);
    assert.equal(res.eval_count, 5);
    let text = '';
    let last: { done: boolean; done_reason: string } | undefined;
    for await (const part of await client.chat({ model: 'llama-m', messages: [{ role: 'user', content: 'hi' }], stream: true })) {
      text += part.message.content;
      last = part;
    }
    assert.equal(text, TEXT);
    assert.equal(last?.done, true);
    const tool = await client.chat({
      model: 'llama-m',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER_TOOL_SCHEMA } }],
      stream: false,
    });
    assert.deepEqual(tool.message.tool_calls?.[0]?.function.arguments, { location: 'Paris' });
  });
});
