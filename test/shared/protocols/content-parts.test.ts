// No content part is dropped silently on a cross-protocol hop: each image or file part is
// either written in the target's own shape or refused with a TranslationRefused that names the
// part and the target protocol; settings a translated answer cannot honour are refused too.
// The rules are the tables of docs/compatibility.md.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CODECS } from '../../../src/shared/protocols/index.js';
import { TranslationRefused, type RefusalReason } from '../../../src/shared/protocols/refusal.js';
import { PROTOCOL_NAMES, type ContentPart, type ModelRequest, type ProtocolName } from '../../../src/shared/model/types.js';

const PDF = Buffer.from('%PDF-1.4 tiny').toString('base64');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function withPart(part: ContentPart): ModelRequest {
  return { model: 'p', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Look:' }, part] }] };
}

/** The wire body the target writes for `req`, or the refusal it raises. */
function encode(target: ProtocolName, req: ModelRequest): { body: unknown } | { refused: TranslationRefused } {
  try {
    return { body: JSON.parse(CODECS[target].encodeRequest(req, 'up-model').body) };
  } catch (e) {
    if (e instanceof TranslationRefused) return { refused: e };
    throw e;
  }
}

function assertRefused(target: ProtocolName, req: ModelRequest, reason: RefusalReason, names: RegExp): void {
  const out = encode(target, req);
  assert.ok('refused' in out, `${target}: expected a refusal, got ${JSON.stringify('body' in out ? out.body : null)}`);
  assert.equal(out.refused.kind, 'untranslatable');
  assert.equal(out.refused.status, 400);
  assert.equal(out.refused.reason, reason);
  assert.match(out.refused.message, names);
  assert.match(out.refused.message, new RegExp(`the ${target} protocol`));
}

/** The first user turn's parts as the target wrote them. */
function userParts(target: ProtocolName, body: unknown): unknown {
  const b = body as Record<string, any>;
  switch (target) {
    case 'openai':
      return b.messages[0].content;
    case 'responses':
      return b.input[0].content;
    case 'anthropic':
      return b.messages[0].content;
    case 'gemini':
      return b.contents[0].parts;
    case 'bedrock':
      return b.messages[0].content;
    case 'ollama':
      return b.messages[0];
  }
}

function assertWritten(target: ProtocolName, part: ContentPart, expected: unknown): void {
  const out = encode(target, withPart(part));
  assert.ok('body' in out, `${target}: refused: ${'refused' in out ? out.refused.message : ''}`);
  assert.deepEqual(userParts(target, out.body), expected);
}

describe('an image given by http(s) URL', () => {
  const image: ContentPart = { type: 'image', url: 'https://example.com/cat.png' };
  it('is passed by URL where the target fetches URLs (openai, responses, anthropic)', () => {
    assertWritten('openai', image, [
      { type: 'text', text: 'Look:' },
      { type: 'image_url', image_url: { url: image.url } },
    ]);
    assertWritten('responses', image, [
      { type: 'input_text', text: 'Look:' },
      { type: 'input_image', image_url: image.url, detail: 'auto' },
    ]);
    assertWritten('anthropic', image, [
      { type: 'text', text: 'Look:' },
      { type: 'image', source: { type: 'url', url: image.url } },
    ]);
  });
  it('goes to Gemini as fileData with the mimeType its extension names', () => {
    assertWritten('gemini', image, [{ text: 'Look:' }, { fileData: { mimeType: 'image/png', fileUri: image.url } }]);
  });
  it('is refused by Gemini when nothing names its media type (fileData needs a mimeType)', () => {
    assertRefused('gemini', withPart({ type: 'image', url: 'https://example.com/render?id=7' }), 'content_part', /"image" given by http\(s\) URL/);
  });
  it('is refused by Bedrock and Ollama, which take image bytes only', () => {
    assertRefused('bedrock', withPart(image), 'content_part', /"image" given by http\(s\) URL/);
    assertRefused('ollama', withPart(image), 'content_part', /"image" given by http\(s\) URL/);
  });
  it('as a data: URL becomes bytes everywhere', () => {
    const inline: ContentPart = { type: 'image', url: `data:image/png;base64,${PNG}` };
    assertWritten('bedrock', inline, [{ text: 'Look:' }, { image: { format: 'png', source: { bytes: PNG } } }]);
    assertWritten('ollama', inline, { role: 'user', content: 'Look:', images: [PNG] });
    assertWritten('gemini', inline, [{ text: 'Look:' }, { inlineData: { mimeType: 'image/png', data: PNG } }]);
  });
});

describe('a PDF document given inline', () => {
  const pdf: ContentPart = { type: 'file', data: PDF, mediaType: 'application/pdf', name: 'report.pdf' };
  it("is written as each target's document or file part", () => {
    assertWritten('openai', pdf, [
      { type: 'text', text: 'Look:' },
      { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
    ]);
    assertWritten('responses', pdf, [
      { type: 'input_text', text: 'Look:' },
      { type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${PDF}` },
    ]);
    assertWritten('anthropic', pdf, [
      { type: 'text', text: 'Look:' },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
    ]);
    assertWritten('gemini', pdf, [{ text: 'Look:' }, { inlineData: { mimeType: 'application/pdf', data: PDF } }]);
    assertWritten('bedrock', pdf, [{ text: 'Look:' }, { document: { format: 'pdf', name: 'report-pdf', source: { bytes: PDF } } }]);
  });
  it('is refused by Ollama, which has no documents', () => {
    assertRefused('ollama', withPart(pdf), 'content_part', /"file" \(application\/pdf\) given inline/);
  });
});

describe('a PDF document given by http(s) URL', () => {
  const pdf: ContentPart = { type: 'file', url: 'https://example.com/report.pdf', mediaType: 'application/pdf' };
  it('is passed by URL where the target takes document URLs (responses, anthropic, gemini)', () => {
    assertWritten('responses', pdf, [
      { type: 'input_text', text: 'Look:' },
      { type: 'input_file', file_url: pdf.url },
    ]);
    assertWritten('anthropic', pdf, [
      { type: 'text', text: 'Look:' },
      { type: 'document', source: { type: 'url', url: pdf.url } },
    ]);
    assertWritten('gemini', pdf, [{ text: 'Look:' }, { fileData: { mimeType: 'application/pdf', fileUri: pdf.url } }]);
  });
  it('is refused by OpenAI Chat, Bedrock and Ollama', () => {
    for (const target of ['openai', 'bedrock', 'ollama'] as const)
      assertRefused(target, withPart(pdf), 'content_part', /"file" \(application\/pdf\) given by http\(s\) URL/);
  });
});

describe('a plain-text document', () => {
  const txt: ContentPart = { type: 'file', data: Buffer.from('the notes').toString('base64'), mediaType: 'text/plain', name: 'notes' };
  it('travels as text where the target has no text documents', () => {
    assertWritten('openai', txt, [
      { type: 'text', text: 'Look:' },
      { type: 'text', text: 'notes\n\nthe notes' },
    ]);
    assertWritten('anthropic', txt, [
      { type: 'text', text: 'Look:' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'the notes' }, title: 'notes' },
    ]);
    assertWritten('bedrock', txt, [{ text: 'Look:' }, { document: { format: 'txt', name: 'notes', source: { bytes: txt.data } } }]);
  });
});

describe('decoders keep what they cannot model, so that it is refused rather than dropped', () => {
  it('an Anthropic document becomes a file part', () => {
    const req = CODECS.anthropic.decodeRequest(
      {
        model: 'm',
        max_tokens: 10,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', title: 'Q3', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
              { type: 'text', text: 'Sum up.' },
            ],
          },
        ],
      },
      {},
    );
    assert.deepEqual(req.messages[0]!.content, [
      { type: 'file', data: PDF, mediaType: 'application/pdf', name: 'Q3' },
      { type: 'text', text: 'Sum up.' },
    ]);
  });
  it('a Gemini fileData keeps its mimeType (an image, or a file)', () => {
    const req = CODECS.gemini.decodeRequest(
      {
        contents: [
          {
            role: 'user',
            parts: [
              { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/r.pdf' } },
              { fileData: { mimeType: 'image/jpeg', fileUri: 'https://x.test/a' } },
            ],
          },
        ],
      },
      { pathModel: 'm' },
    );
    assert.deepEqual(req.messages[0]!.content, [
      { type: 'file', url: 'gs://b/r.pdf', mediaType: 'application/pdf' },
      { type: 'image', url: 'https://x.test/a', mediaType: 'image/jpeg' },
    ]);
  });
  for (const [from, body, what] of [
    ['openai', { model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }] }] }, 'input_audio'],
    ['openai', { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] }, 'file (file_id)'],
    [
      'anthropic',
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'f' } }] }] },
      'document (file source)',
    ],
    ['bedrock', { messages: [{ role: 'user', content: [{ video: { format: 'mp4', source: { bytes: 'AA' } } }] }] }, 'video'],
    ['gemini', { contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'audio/mp3', data: 'AA' } }] }] }, 'inlineData (audio/mp3)'],
    [
      'anthropic',
      {
        model: 'm',
        max_tokens: 5,
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'screenshot', input: {} }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }],
          },
        ],
      },
      'image in a tool_result',
    ],
    [
      'bedrock',
      {
        messages: [
          { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'screenshot', input: {} } }] },
          { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'here' }, { image: { format: 'png', source: { bytes: PNG } } }] } }] },
        ],
      },
      'image in a toolResult',
    ],
  ] as const) {
    it(`${from} "${what}" is refused by every other protocol, naming it`, () => {
      const req = CODECS[from].decodeRequest(body, { pathModel: 'm' });
      for (const target of PROTOCOL_NAMES) {
        if (target !== from) assertRefused(target, req, 'content_part', new RegExp(`"${what.replace(/[()]/g, '\\$&')}"`));
      }
    });
  }
});

describe('settings a translated answer cannot honour are refused, not changed', () => {
  for (const [from, body, setting] of [
    ['openai', { model: 'm', n: 3, messages: [{ role: 'user', content: 'hi' }] }, 'n=3'],
    ['openai', { model: 'm', logprobs: true, messages: [{ role: 'user', content: 'hi' }] }, 'logprobs'],
    ['responses', { model: 'm', input: 'hi', top_logprobs: 2 }, 'top_logprobs'],
    ['gemini', { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { candidateCount: 2 } }, 'candidateCount=2'],
    // A bare enum value answer: no other protocol's structured output writes one.
    [
      'gemini',
      { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a', 'b'] } } },
      'responseMimeType text/x.enum',
    ],
  ] as const) {
    it(`${from} ${setting}`, () => {
      const req = CODECS[from].decodeRequest(body, { pathModel: 'm' });
      for (const target of PROTOCOL_NAMES) {
        if (target !== from) assertRefused(target, req, 'parameter', new RegExp(setting.replace(/[.()]/g, '\\$&')));
      }
    });
  }
  it('n=1 and a text format are not refused', () => {
    const req = CODECS.openai.decodeRequest({ model: 'm', n: 1, response_format: { type: 'text' }, messages: [{ role: 'user', content: 'hi' }] }, {});
    assert.equal(req.untranslatable, undefined);
    assert.ok('body' in encode('anthropic', req));
  });
});
