// Ollama's /api/generate as an ingress form: the prompt as one user message, and the answer
// (whole and streamed) in generate's shape.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeGenerateRequest, encodeGenerateResponse, GenerateStreamEncoder } from '../../../../src/shared/protocols/ollama/generate.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('ollama /api/generate', () => {
  it('decodes prompt, system, images and options; streams by default', () => {
    const req = decodeGenerateRequest({ model: 'm', prompt: 'P', system: 'S', images: [PNG], options: { num_predict: 7, stop: ['x'] } });
    assert.equal(req.stream, true);
    assert.equal(req.system, 'S');
    assert.equal(req.maxTokens, 7);
    assert.deepEqual(req.stop, ['x']);
    assert.deepEqual(req.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'P' },
          { type: 'image', data: PNG, mediaType: 'image/png' },
        ],
      },
    ]);
    assert.equal(decodeGenerateRequest({ model: 'm', prompt: 'P', stream: false }).stream, false);
  });

  it('format and think are translated, suffix and raw are untranslatable; a missing model is a bad request', () => {
    const req = decodeGenerateRequest({ model: 'm', prompt: 'P', format: 'json', think: 'high', suffix: 'end', raw: true });
    assert.deepEqual(req.untranslatable, ['suffix', 'raw']);
    assert.deepEqual(req.responseFormat, { type: 'json' });
    assert.deepEqual(req.reasoning, { effort: 'high' });
    assert.deepEqual(decodeGenerateRequest({ model: 'm', prompt: 'P', format: { type: 'object' } }).responseFormat, {
      type: 'json_schema',
      schema: { type: 'object' },
    });
    assert.throws(() => decodeGenerateRequest({ prompt: 'P' }), /model is required/);
  });

  it('answers in generate shape: response text, done line with the counts', () => {
    const usage = { input: 3, output: 2, cacheRead: 0, cacheCreation: 0 };
    const whole = JSON.parse(encodeGenerateResponse({ id: 'x', model: 'm', content: [{ type: 'text', text: 'hi' }], finishReason: 'stop', usage }));
    assert.equal(whole.response, 'hi');
    assert.equal(whole.done, true);
    assert.equal(whole.prompt_eval_count, 3);
    const enc = new GenerateStreamEncoder();
    const out = [
      enc.encode({ type: 'start', id: 'x', model: 'm' }),
      enc.encode({ type: 'text_delta', index: 0, text: 'h' }),
      enc.encode({ type: 'text_delta', index: 0, text: 'i' }),
      enc.encode({ type: 'finish', reason: 'length' }),
      enc.encode({ type: 'usage', usage }),
      enc.encode({ type: 'end' }),
    ].join('');
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.response),
      ['h', 'i', ''],
    );
    assert.equal(lines[2].done_reason, 'length');
    assert.equal(lines[2].eval_count, 2);
    assert.equal(lines[0].model, 'm');
  });
});
