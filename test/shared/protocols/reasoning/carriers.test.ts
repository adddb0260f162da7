// Reasoning state round trips on all 36 (caller, lane) pairs, codec to codec: a lane's answer
// with its reasoning (the model's parts of that lane's family) is written for the caller, the
// caller echoes the assistant turn the way its clients do (whole, and for Chat Completions and
// Ollama also the way frameworks that keep only content and tool calls do), the gateway reads
// the next request back, and the lane's request must hold its own state byte for byte in its
// native field, with no token left anywhere. State of another family never reaches a lane.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CODECS } from '../../../../src/shared/protocols/index.js';
import { PROTOCOL_NAMES, type ContentPart, type ModelResponse, type ProtocolName, type ReasoningPart } from '../../../../src/shared/model/types.js';
import type { RouteInfo } from '../../../../src/shared/protocols/codec.js';
import { TOKEN_PREFIX } from '../../../../src/shared/protocols/reasoning/state-token.js';

type Json = Record<string, any>;

const QUESTION = 'Weather in Paris?';
const RESULT = '21C and sunny';
const ROUTE: Record<ProtocolName, RouteInfo> = {
  openai: {},
  responses: {},
  anthropic: {},
  ollama: {},
  gemini: { pathModel: 'pool', pathStream: false },
  bedrock: { pathModel: 'pool', pathStream: false },
};

/** What each lane's decoder gives for its own reasoning (the parts the tests expect back). */
const LANE_REASONING: Record<ProtocolName, ReasoningPart[]> = {
  anthropic: [{ type: 'reasoning', text: 'The user wants weather.\nUse the tool.', family: 'anthropic', signature: 'EqQBCkgIARABGAIiQL2UoU0b1OHY+/=' }],
  bedrock: [{ type: 'reasoning', text: 'Need weather ☀️.', family: 'bedrock', signature: 'EqwBCkYIBRgCKkB/x+=' }],
  gemini: [
    { type: 'reasoning', text: '**Planning** the call', family: 'gemini' },
    { type: 'reasoning', text: '', family: 'gemini', signature: 'CiQBcsjafPw2a4kq+/AAA=' },
  ],
  responses: [{ type: 'reasoning', text: 'Summary: call the tool', family: 'responses', itemId: 'rs_68af4031a1', signature: 'gAAAAABo-encrypted==' }],
  openai: [{ type: 'reasoning', text: 'Reasoned "carefully".', family: 'openai' }],
  ollama: [{ type: 'reasoning', text: 'thinking…', family: 'ollama' }],
};

/** A lane's tool-call answer: its reasoning, a text, then the call (Gemini's signature just before the call). */
function laneAnswer(lane: ProtocolName): ModelResponse {
  const reasoning = LANE_REASONING[lane];
  const content: ContentPart[] =
    lane === 'gemini' ? [reasoning[0]!, { type: 'text', text: 'Checking.' }, reasoning[1]!] : [...reasoning, { type: 'text', text: 'Checking.' }];
  content.push({ type: 'tool_call', id: `call_${lane}_1`, name: 'get_weather', arguments: '{"city":"Paris"}' });
  return {
    id: 'resp_1',
    model: 'm',
    content: content as ModelResponse['content'],
    finishReason: 'tool_calls',
    usage: { input: 1, output: 1, cacheRead: 0, cacheCreation: 0 },
  };
}

/** The caller's next request: the question, the answer's assistant turn as the caller echoes it, the tool result. */
const ECHO: Record<ProtocolName, (answer: Json, whole: boolean) => Json> = {
  openai: (a, whole) => {
    const msg = a.choices[0].message;
    const turn = whole
      ? msg
      : { role: 'assistant', content: msg.content, tool_calls: msg.tool_calls.map((c: Json) => ({ id: c.id, type: c.type, function: c.function })) };
    return { model: 'pool', messages: [{ role: 'user', content: QUESTION }, turn, { role: 'tool', tool_call_id: msg.tool_calls[0].id, content: RESULT }] };
  },
  responses: (a) => {
    const call = a.output.find((i: Json) => i.type === 'function_call');
    return {
      model: 'pool',
      input: [{ role: 'user', content: QUESTION }, ...a.output, { type: 'function_call_output', call_id: call.call_id, output: RESULT }],
    };
  },
  anthropic: (a) => {
    const call = a.content.find((b: Json) => b.type === 'tool_use');
    return {
      model: 'pool',
      max_tokens: 64,
      messages: [
        { role: 'user', content: QUESTION },
        { role: 'assistant', content: a.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: RESULT }] },
      ],
    };
  },
  gemini: (a) => {
    const content = a.candidates[0].content;
    const call = content.parts.find((p: Json) => p.functionCall !== undefined).functionCall;
    return {
      contents: [
        { role: 'user', parts: [{ text: QUESTION }] },
        content,
        { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { content: RESULT } } }] },
      ],
    };
  },
  bedrock: (a) => {
    const message = a.output.message;
    const call = message.content.find((b: Json) => b.toolUse !== undefined).toolUse;
    return {
      messages: [
        { role: 'user', content: [{ text: QUESTION }] },
        message,
        { role: 'user', content: [{ toolResult: { toolUseId: call.toolUseId, content: [{ text: RESULT }] } }] },
      ],
    };
  },
  ollama: (a, whole) => {
    const msg = a.message;
    const turn = whole ? msg : { role: 'assistant', content: msg.content, tool_calls: msg.tool_calls };
    return {
      model: 'pool',
      messages: [{ role: 'user', content: QUESTION }, turn, { role: 'tool', tool_name: 'get_weather', tool_call_id: msg.tool_calls[0].id, content: RESULT }],
    };
  },
};

/** The lane's own state in its request, as its vendor wants it back. */
const NATIVE_STATE: Record<ProtocolName, (body: Json) => void> = {
  anthropic: (b) => {
    const r = LANE_REASONING.anthropic[0]!;
    assert.deepEqual(b.messages[1].content[0], { type: 'thinking', thinking: r.text, signature: r.signature });
  },
  bedrock: (b) => {
    const r = LANE_REASONING.bedrock[0]!;
    assert.deepEqual(b.messages[1].content[0], { reasoningContent: { reasoningText: { text: r.text, signature: r.signature } } });
  },
  gemini: (b) => {
    const [thought, signed] = LANE_REASONING.gemini;
    const parts = b.contents[1].parts;
    assert.deepEqual(parts[0], { text: thought!.text, thought: true });
    const call = parts.find((p: Json) => p.functionCall !== undefined);
    assert.equal(call.thoughtSignature, signed!.signature);
  },
  responses: (b) => {
    const r = LANE_REASONING.responses[0]!;
    const at = b.input.findIndex((i: Json) => i.type === 'reasoning');
    assert.deepEqual(b.input[at], { type: 'reasoning', id: r.itemId, summary: [{ type: 'summary_text', text: r.text }], encrypted_content: r.signature });
    assert.ok(at < b.input.findIndex((i: Json) => i.type === 'function_call'), 'the reasoning item before its call');
  },
  openai: (b) => assert.equal(b.messages[1].reasoning_content, LANE_REASONING.openai[0]!.text),
  ollama: (b) => assert.equal(b.messages[1].thinking, LANE_REASONING.ollama[0]!.text),
};

/** The tool call id and its result's id in the lane's request (the lane's own id, no token). */
const CALL_IDS: Record<ProtocolName, (body: Json) => [string | undefined, string | undefined]> = {
  openai: (b) => [b.messages[1].tool_calls[0].id, b.messages[2].tool_call_id],
  responses: (b) => [b.input.find((i: Json) => i.type === 'function_call').call_id, b.input.find((i: Json) => i.type === 'function_call_output').call_id],
  anthropic: (b) => [b.messages[1].content.find((x: Json) => x.type === 'tool_use').id, b.messages[2].content[0].tool_use_id],
  gemini: (b) => [b.contents[1].parts.find((p: Json) => p.functionCall).functionCall.id, b.contents[2].parts[0].functionResponse.id],
  bedrock: (b) => [b.messages[1].content.find((x: Json) => x.toolUse).toolUse.toolUseId, b.messages[2].content[0].toolResult.toolUseId],
  ollama: (b) => [b.messages[1].tool_calls[0].id, b.messages[2].tool_call_id],
};

function reasoningOf(content: readonly ContentPart[]): ReasoningPart[] {
  return content.filter((p): p is ReasoningPart => p.type === 'reasoning');
}

/**
 * Every caller keeps the whole turn; Chat Completions and Ollama callers may keep only content
 * and tool calls, which carry another family's state (their own family's is the text they left
 * out: same-protocol traffic is passed through as the caller sent it).
 */
function echoes(caller: ProtocolName, lane: ProtocolName): boolean[] {
  return (caller === 'openai' || caller === 'ollama') && caller !== lane ? [true, false] : [true];
}

for (const lane of PROTOCOL_NAMES) {
  describe(`reasoning of a ${lane} lane`, () => {
    for (const caller of PROTOCOL_NAMES) {
      for (const whole of echoes(caller, lane)) {
        it(`comes back through a ${caller} caller${whole ? '' : ' that echoes only content and tool calls'}, byte for byte`, () => {
          const answer = laneAnswer(lane);
          const written = JSON.parse(CODECS[caller].encodeResponse(answer));
          const next = ECHO[caller](written, whole);
          const req = CODECS[caller].decodeRequest(next, ROUTE[caller]);
          const assistant = req.messages.find((m) => m.role === 'assistant');
          assert.ok(assistant !== undefined, 'the assistant turn reads back');
          assert.deepEqual(reasoningOf(assistant.content), LANE_REASONING[lane], 'the reasoning reads back as the lane gave it');
          const upstream = CODECS[lane].encodeRequest(req, 'm');
          assert.ok(!upstream.body.includes(TOKEN_PREFIX), 'no token reaches the lane');
          const body = JSON.parse(upstream.body) as Json;
          NATIVE_STATE[lane](body);
          assert.deepEqual(CALL_IDS[lane](body), [`call_${lane}_1`, `call_${lane}_1`], "the lane's own call id, on the call and its result");
        });
      }
    }

    for (const other of PROTOCOL_NAMES) {
      if (other === lane) continue;
      it(`is dropped, not sent, when the next turn goes to a ${other} lane`, () => {
        const req = CODECS.anthropic.decodeRequest(ECHO.anthropic(JSON.parse(CODECS.anthropic.encodeResponse(laneAnswer(lane))), true), {});
        const upstream = CODECS[other].encodeRequest(req, 'm');
        assert.ok(!upstream.body.includes(TOKEN_PREFIX), 'no token');
        for (const r of LANE_REASONING[lane]) {
          if (r.signature !== undefined) assert.ok(!upstream.body.includes(JSON.stringify(r.signature)), `${lane} state not in the ${other} request`);
        }
        // Of the turn, the text and the call go; the lane's own field for state is absent.
        assert.ok(upstream.body.includes('Checking.'));
      });
    }
  });
}
