// The translation matrix's dropped-part cases, through the real gateway with the callers' own
// SDKs: URL images to Bedrock and Ollama, documents to OpenAI, file parts to Gemini, and a
// setting a translated answer cannot honour. Each is either translated (the mock, an
// independent witness, shows what reached the upstream) or refused with a 400 in the caller's
// shape naming the part and the target protocol, and counted in
// gateway_translations_refused_total.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import { suiteStack } from '../../helpers/clients/stack.js';
import { openaiSdk } from '../../helpers/clients/openai.js';
import { anthropicSdk } from '../../helpers/clients/anthropic.js';
import { geminiSdk } from '../../helpers/clients/gemini.js';
import { mockText } from '../../../src/mock/content.js';

const PDF = Buffer.from('%PDF-1.4 a tiny test document').toString('base64');
const IMAGE_URL = 'https://images.example.com/cat.png';

const stack = suiteStack({ workers: 1, over: { export: { prom: { module: 'prometheus', settings: { buffer_seconds: 60 } } } } });

/** The body the mock received last, parsed (from its /mock/last-request control route). */
async function upstreamBody(): Promise<Record<string, any>> {
  const res = await fetch(`${stack.mock.url}/mock/last-request`);
  assert.equal(res.status, 200, 'the mock received no request');
  const last = (await res.json()) as { body: string };
  return JSON.parse(last.body) as Record<string, any>;
}

async function refusedBy<T extends Error>(call: () => Promise<unknown>, type: new (...args: any[]) => T): Promise<T> {
  try {
    await call();
  } catch (e) {
    assert.ok(e instanceof type, `expected ${type.name}, got ${String(e)}`);
    return e;
  }
  assert.fail('the request was not refused');
}

function imageUrlChat(model: string): Promise<unknown> {
  return openaiSdk(stack.gateway.url).chat.completions.create({
    model,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: IMAGE_URL } },
        ],
      },
    ],
  });
}

describe('an http(s) image URL', () => {
  for (const lane of ['bedrock', 'ollama'] as const) {
    it(`openai -> ${lane}: refused with a 400 naming the part and the ${lane} protocol`, async () => {
      const before = stack.mock.stats().requests;
      const e = await refusedBy(() => imageUrlChat(`pool-${lane}`), OpenAI.BadRequestError);
      assert.equal(e.status, 400);
      assert.equal(e.code, 'untranslatable');
      assert.equal(e.type, 'invalid_request_error');
      assert.match(e.message, /"image" given by http\(s\) URL/);
      assert.match(e.message, new RegExp(`the ${lane} protocol`));
      assert.equal(stack.mock.stats().requests, before, 'nothing reached the upstream');
    });
  }

  it('openai -> gemini: translated to fileData with the mimeType the URL names', async () => {
    const answer = (await imageUrlChat('pool-gemini')) as OpenAI.ChatCompletion;
    assert.equal(answer.choices[0]!.message.content, mockText(5));
    assert.deepEqual((await upstreamBody()).contents[0].parts, [{ text: 'What is this?' }, { fileData: { mimeType: 'image/png', fileUri: IMAGE_URL } }]);
  });

  it("anthropic -> bedrock: refused in Anthropic's error shape", async () => {
    const e = await refusedBy(
      () =>
        anthropicSdk(stack.gateway.url).messages.create({
          model: 'pool-bedrock',
          max_tokens: 32,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source: { type: 'url', url: IMAGE_URL } },
                { type: 'text', text: 'What is this?' },
              ],
            },
          ],
        }),
      Anthropic.BadRequestError,
    );
    assert.equal((e.error as { error?: { type?: string } }).error?.type, 'invalid_request_error');
    assert.match(e.message, /the bedrock protocol/);
  });
});

describe('an Anthropic document (PDF)', () => {
  const ask = (model: string) =>
    anthropicSdk(stack.gateway.url).messages.create({
      model,
      max_tokens: 32,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', title: 'Q3 report', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
            { type: 'text', text: 'Sum it up.' },
          ],
        },
      ],
    });

  it('anthropic -> openai: translated to a Chat Completions file part', async () => {
    const answer = await ask('pool-openai');
    assert.deepEqual(answer.content, [{ type: 'text', text: mockText(5) }]);
    assert.deepEqual((await upstreamBody()).messages[0].content, [
      { type: 'file', file: { filename: 'Q3 report', file_data: `data:application/pdf;base64,${PDF}` } },
      { type: 'text', text: 'Sum it up.' },
    ]);
  });

  it('anthropic -> gemini: translated to inlineData with its mimeType', async () => {
    await ask('pool-gemini');
    assert.deepEqual((await upstreamBody()).contents[0].parts[0], { inlineData: { mimeType: 'application/pdf', data: PDF } });
  });

  it('anthropic -> ollama: refused (Ollama has no documents)', async () => {
    const e = await refusedBy(() => ask('pool-ollama'), Anthropic.BadRequestError);
    assert.match(e.message, /\\?"file\\?" \(application\/pdf\) given inline/);
    assert.match(e.message, /the ollama protocol/);
  });
});

describe('file parts to Gemini', () => {
  it('openai file part -> gemini: inlineData with its mimeType', async () => {
    await openaiSdk(stack.gateway.url).chat.completions.create({
      model: 'pool-gemini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { filename: 'r.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
            { type: 'text', text: 'Sum it up.' },
          ],
        },
      ],
    });
    assert.deepEqual((await upstreamBody()).contents[0].parts[0], { inlineData: { mimeType: 'application/pdf', data: PDF } });
  });

  it('gemini fileData -> anthropic: a PDF by URL becomes a URL document', async () => {
    const url = 'https://docs.example.com/r.pdf';
    await geminiSdk(stack.gateway.url).models.generateContent({
      model: 'pool-anthropic',
      contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'application/pdf', fileUri: url } }, { text: 'Sum it up.' }] }],
    });
    assert.deepEqual((await upstreamBody()).messages[0].content[0], { type: 'document', source: { type: 'url', url } });
  });

  it("gemini audio -> openai: refused in Gemini's error shape", async () => {
    const e = await refusedBy(
      () =>
        geminiSdk(stack.gateway.url).models.generateContent({
          model: 'pool-openai',
          contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }, { text: 'Transcribe.' }] }],
        }),
      ApiError,
    );
    assert.equal(e.status, 400);
    assert.match(e.message, /INVALID_ARGUMENT/);
    assert.match(e.message, /inlineData \(audio\/wav\).*the openai protocol/);
  });
});

describe('a setting a translated answer cannot honour', () => {
  it('openai n=2 -> anthropic: refused, not answered with one choice', async () => {
    const e = await refusedBy(
      () =>
        openaiSdk(stack.gateway.url).chat.completions.create({
          model: 'pool-anthropic',
          n: 2,
          messages: [{ role: 'user', content: 'Two answers, please.' }],
        }),
      OpenAI.BadRequestError,
    );
    assert.match(e.message, /n=2 cannot be translated to the anthropic protocol/);
  });

  it('openai n=2 -> openai: passed through (the lane honours it)', async () => {
    await openaiSdk(stack.gateway.url).chat.completions.create({ model: 'pool-openai', n: 2, messages: [{ role: 'user', content: 'Two answers.' }] });
    assert.equal((await upstreamBody()).n, 2);
  });
});

describe('gateway_translations_refused_total', () => {
  it('counts every refusal by from, to and reason', async () => {
    const res = await fetch(`${stack.gateway.url}/metrics`);
    const text = await res.text();
    const value = (labels: string): number => Number(new RegExp(`^gateway_translations_refused_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    assert.ok(value('from="openai",to="bedrock",reason="content_part"') >= 1, text);
    assert.ok(value('from="openai",to="ollama",reason="content_part"') >= 1);
    assert.ok(value('from="anthropic",to="ollama",reason="content_part"') >= 1);
    assert.ok(value('from="openai",to="anthropic",reason="parameter"') >= 1);
  });
});
