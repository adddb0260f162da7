// The mock checks, as each vendor does, the reasoning state it gave in an earlier turn when a
// request sends it back: a signature that is not the one it gave is refused (400, the vendor's
// words), and, when it reasons (`reasoning` on or asked for), so is a tool-use turn that comes
// back without the state the vendor requires there. So a test that gets an answer after a
// tool loop knows the state made the round trip byte for byte.
import { MOCK_TOOL_CALL_ID } from '../content.js';
import { arrayAt, objectAt, stringAt, type JsonObject } from '../protocols/json-read.js';
import type { MockProtocolName } from '../protocols/types.js';
import { geminiSubject, MOCK_REASONING_ITEM_ID, MOCK_REASONING_TEXT, mockSignature } from './content.js';

const ANTHROPIC_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** The vendor's 400 message for what the request sent back wrong, or null when it is fine. */
export function reasoningHistoryError(protocol: MockProtocolName, body: JsonObject, reasoning: boolean): string | null {
  switch (protocol) {
    case 'anthropic':
      return signedBlocksError(
        arrayAt(body.messages),
        reasoning,
        anthropicBlock,
        (b) => b.type === 'tool_use',
        (b) => b.type === 'tool_result',
        '',
      );
    case 'bedrock':
      return signedBlocksError(
        arrayAt(body.messages),
        reasoning,
        bedrockBlock,
        (b) => b.toolUse !== undefined,
        (b) => b.toolResult !== undefined,
        'The model returned the following errors: ',
      );
    case 'gemini':
      return geminiError(arrayAt(body.contents), reasoning);
    case 'responses':
      return responsesError(arrayAt(body.input), reasoning);
    case 'openai':
      return reasoning ? openaiError(arrayAt(body.messages)) : null;
    case 'ollama':
      return null; // Ollama takes thinking back, and asks for none
  }
}

/** A reasoning block: 'ok', 'bad' (state the mock did not give), or null (not reasoning). */
type BlockVerdict = 'ok' | 'bad' | null;

function anthropicBlock(b: JsonObject): BlockVerdict {
  if (b.type === 'thinking') return typeof b.thinking === 'string' && b.signature === mockSignature('anthropic', b.thinking) ? 'ok' : 'bad';
  return b.type === 'redacted_thinking' ? 'bad' : null; // the mock never redacts
}

function bedrockBlock(b: JsonObject): BlockVerdict {
  const rc = objectAt(b.reasoningContent);
  if (rc === null) return null;
  const rt = objectAt(rc.reasoningText);
  return rt !== null && typeof rt.text === 'string' && rt.signature === mockSignature('bedrock', rt.text) ? 'ok' : 'bad';
}

/**
 * Anthropic's rules (Bedrock passes them on for Claude): every thinking block's signature must
 * be the one given for its text; with thinking on, the last assistant turn before a tool result
 * must start with its thinking.
 */
function signedBlocksError(
  messages: readonly unknown[] | null,
  reasoning: boolean,
  verdict: (b: JsonObject) => BlockVerdict,
  isToolUse: (b: JsonObject) => boolean,
  isToolResult: (b: JsonObject) => boolean,
  prefix: string,
): string | null {
  if (messages === null) return null;
  let lastAssistant = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = objectAt(messages[i]);
    const blocks = arrayAt(m?.content);
    if (m === null || m.role !== 'assistant' || blocks === null) continue;
    lastAssistant = i;
    for (let j = 0; j < blocks.length; j++) {
      const b = objectAt(blocks[j]);
      if (b !== null && verdict(b) === 'bad') return `${prefix}messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
    }
  }
  if (!reasoning || lastAssistant < 0) return null;
  const lastBlocks = arrayAt(objectAt(messages[messages.length - 1])?.content) ?? [];
  if (!lastBlocks.some((b) => objectAt(b) !== null && isToolResult(objectAt(b)!))) return null;
  const blocks = arrayAt(objectAt(messages[lastAssistant])?.content) ?? [];
  if (!blocks.some((b) => objectAt(b) !== null && isToolUse(objectAt(b)!))) return null;
  const first = objectAt(blocks[0]);
  if (first !== null && verdict(first) !== null) return null;
  const found = first === null ? 'nothing' : (stringAt(first.type) ?? Object.keys(first)[0] ?? 'nothing');
  return (
    `${prefix}messages.${lastAssistant}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. ` +
    'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
    `We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${ANTHROPIC_DOCS}`
  );
}

/**
 * Gemini's: a thoughtSignature must be the one given for its part; with thinking on, the first
 * functionCall of each model step of the current turn (after the last user text) must carry one.
 */
function geminiError(contents: readonly unknown[] | null, reasoning: boolean): string | null {
  if (contents === null) return null;
  let turnStart = 0;
  for (let i = 0; i < contents.length; i++) {
    const c = objectAt(contents[i]);
    if (c === null) continue;
    const parts = arrayAt(c.parts) ?? [];
    if (c.role !== 'model') {
      if (parts.some((p) => typeof objectAt(p)?.text === 'string')) turnStart = i + 1;
      continue;
    }
    for (const raw of parts) {
      const p = objectAt(raw);
      const signature = p === null ? null : stringAt(p.thoughtSignature ?? p.thought_signature);
      if (p === null || signature === null) continue;
      const call = objectAt(p.functionCall ?? p.function_call);
      const expected = p.thought === true ? null : mockSignature('gemini', geminiSubject(call === null ? null : stringAt(call.name)));
      if (signature !== expected) return 'Corrupted thought signature.';
    }
  }
  if (!reasoning) return null;
  for (let i = turnStart; i < contents.length; i++) {
    const c = objectAt(contents[i]);
    if (c === null || c.role !== 'model') continue;
    const parts = arrayAt(c.parts) ?? [];
    const at = parts.findIndex((p) => objectAt(objectAt(p)?.functionCall ?? objectAt(p)?.function_call) !== null);
    if (at < 0) continue;
    const p = objectAt(parts[at])!;
    if (stringAt(p.thoughtSignature ?? p.thought_signature) === null) {
      const name = stringAt(objectAt(p.functionCall ?? p.function_call)?.name) ?? '';
      return (
        'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. ' +
        `Additional data, function call \`default_api:${name}\` , position ${at + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`
      );
    }
  }
  return null;
}

/**
 * The Responses API's: a reasoning item must be one it gave, with its encrypted_content; with
 * reasoning on, its function call comes back after its reasoning item (the mock wants the
 * encrypted content, as with store: false, so that the state is what came back).
 */
function responsesError(input: readonly unknown[] | null, reasoning: boolean): string | null {
  if (input === null) return null;
  let sawReasoning = false;
  for (const raw of input) {
    const item = objectAt(raw);
    if (item === null) continue;
    if (item.type === 'reasoning') {
      const id = stringAt(item.id);
      if (id !== MOCK_REASONING_ITEM_ID) return `Item with id '${id ?? ''}' not found.`;
      if (item.encrypted_content !== mockSignature('responses', id)) return `The encrypted content for item ${id} could not be verified.`;
      sawReasoning = true;
    } else if (reasoning && item.type === 'function_call' && item.call_id === MOCK_TOOL_CALL_ID && !sawReasoning) {
      return `Item 'fc_mock_1' of type 'function_call' was provided without its required 'reasoning' item: '${MOCK_REASONING_ITEM_ID}'.`;
    }
  }
  return null;
}

/** DeepSeek's thinking mode: a tool-call turn's reasoning_content must come back (the mock checks its bytes too). */
function openaiError(messages: readonly unknown[] | null): string | null {
  if (messages === null) return null;
  for (const raw of messages) {
    const m = objectAt(raw);
    if (m === null || m.role !== 'assistant' || (arrayAt(m.tool_calls)?.length ?? 0) === 0) continue;
    if (m.reasoning_content !== MOCK_REASONING_TEXT) return 'The reasoning_content in the thinking mode must be passed back to the API.';
  }
  return null;
}
