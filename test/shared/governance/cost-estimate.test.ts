// The per-protocol cost estimators: each reads its output cap from the members the request path
// reads (readTopLevelMembers with membersToRead), leaves binary payloads out of the text and
// charges each one a fixed number of tokens.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { inputTokens, type BinaryScan } from '../../../src/shared/governance/cost-estimate.js';
import { COST_ESTIMATORS, membersToRead } from '../../../src/shared/governance/estimators.js';
import { CODECS } from '../../../src/shared/protocols/index.js';
import { readTopLevelMembers } from '../../../src/shared/protocols/framing/top-level-members.js';
import type { ProtocolName } from '../../../src/shared/model/types.js';

const IMAGE = 'A'.repeat(12_000);

/** What admission estimates for `body` on `protocol`: [input tokens, output cap]. */
function estimate(protocol: ProtocolName, body: unknown): [number, number] {
  const bytes = Buffer.from(JSON.stringify(body));
  const head = readTopLevelMembers(bytes, membersToRead(CODECS[protocol])!);
  assert.equal(typeof head, 'object');
  const e = COST_ESTIMATORS[protocol];
  const scan: BinaryScan = { bytes: 0, parts: 0 };
  e.scanBinary(bytes, scan);
  return [inputTokens(bytes.length, scan, e), e.outputCap(head)];
}

const textTokens = (body: unknown, minus = 0): number => Math.ceil((Buffer.byteLength(JSON.stringify(body)) - minus) / 3);

describe('cost estimates', () => {
  it('openai: max_completion_tokens over max_tokens, times n; a data-URL image is charged, not read as text', () => {
    const plain = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hello there' }] };
    assert.deepEqual(estimate('openai', plain), [textTokens(plain), 100]);
    assert.equal(estimate('openai', { ...plain, max_completion_tokens: 40, n: 3 })[1], 120);
    assert.equal(estimate('openai', { model: 'm', messages: [] })[1], -1, 'no cap');
    const image = {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is it' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${IMAGE}` } },
          ],
        },
      ],
    };
    assert.deepEqual(estimate('openai', image), [textTokens(image, IMAGE.length) + 1445, -1]);
    const byUrl = { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] };
    assert.equal(estimate('openai', byUrl)[0], textTokens(byUrl) + 1445, 'an image by URL is charged too');
  });

  it('a prompt that only mentions a member name is text', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'set "image_url": and "max_tokens": 5 please' }] };
    assert.deepEqual(estimate('openai', body), [textTokens(body), -1]);
  });

  it('responses: max_output_tokens; input_image data URLs', () => {
    const body = {
      model: 'm',
      max_output_tokens: 64,
      input: [{ role: 'user', content: [{ type: 'input_image', image_url: `data:image/jpeg;base64,${IMAGE}` }] }],
    };
    assert.deepEqual(estimate('responses', body), [textTokens(body, IMAGE.length) + 1445, 64]);
  });

  it('anthropic: max_tokens; base64 image and document sources', () => {
    const body = {
      model: 'm',
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: IMAGE } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: IMAGE } },
            { type: 'text', text: 'compare' },
          ],
        },
      ],
    };
    assert.deepEqual(estimate('anthropic', body), [textTokens(body, 2 * IMAGE.length) + 2 * 1600, 50]);
  });

  it('gemini: generationConfig.maxOutputTokens times candidateCount (either spelling); inlineData', () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }, { inlineData: { mimeType: 'image/png', data: IMAGE } }] }],
      generationConfig: { maxOutputTokens: 30, candidateCount: 2 },
    };
    assert.deepEqual(estimate('gemini', body), [textTokens(body, IMAGE.length) + 1290, 60]);
    assert.equal(estimate('gemini', { contents: [], generation_config: { max_output_tokens: 7 } })[1], 7);
  });

  it('bedrock: inferenceConfig.maxTokens; image bytes', () => {
    const body = {
      messages: [{ role: 'user', content: [{ image: { format: 'png', source: { bytes: IMAGE } } }, { text: 'hi' }] }],
      inferenceConfig: { maxTokens: 12 },
    };
    assert.deepEqual(estimate('bedrock', body), [textTokens(body, IMAGE.length) + 1600, 12]);
  });

  it('ollama: options.num_predict when positive; each bare base64 image', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi', images: [IMAGE, IMAGE] }], options: { num_predict: 9 } };
    assert.deepEqual(estimate('ollama', body), [textTokens(body, 2 * IMAGE.length) + 2 * 1600, 9]);
    assert.equal(estimate('ollama', { model: 'm', messages: [], options: { num_predict: -1 } })[1], -1, '-1: no limit');
  });

  it("the members read are the codec's first (model leads), then the estimator's, one array per codec", () => {
    const list = membersToRead(CODECS.openai)!;
    assert.deepEqual(list, ['model', 'stream', 'stream_options', 'max_completion_tokens', 'max_tokens', 'n']);
    assert.equal(membersToRead(CODECS.openai), list);
    for (const codec of Object.values(CODECS)) assert.ok((membersToRead(codec) ?? []).length <= 8);
  });
});
