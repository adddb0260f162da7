// The tool-call id as a carrier of reasoning state, for callers whose protocol has no field of
// its own for it (Chat Completions, Ollama): the one thing every client and framework sends back
// unchanged on its next turn is the id of the tool call it answers (LangChain, for one, drops
// `reasoning_content` and any extra message field). The reasoning the model gave before a call
// rides in that call's id, texts and all, after the caller's id and a `~`; the gateway reads it
// back from the assistant turn's tool call and strips it from the call and from its result.
import type { ModelResponse, ProtocolName, ReasoningPart, ToolCallPart } from '../../model/types.js';
import { decodeStateToken, encodeStateToken, TOKEN_PREFIX } from './state-token.js';

const MARK = `~${TOKEN_PREFIX}`;

/** `id` carrying `parts` (the id alone when there are none). */
export function idWithReasoning(id: string, parts: readonly ReasoningPart[]): string {
  return parts.length === 0 ? id : `${id}~${encodeStateToken(parts, true)}`;
}

/** A whole answer's content as a Chat-style message carries it: its texts, reasoning and tool calls. */
export interface CallCarriedContent {
  texts: string[];
  /** Every reasoning part, in order: the caller's own family shows it in the message's own field. */
  reasoning: ReasoningPart[];
  /** The tool calls, each id carrying the other families' reasoning given since the call before it. */
  toolCalls: ToolCallPart[];
}

/**
 * `content` split for a caller of protocol `family`: reasoning of its own family has a field of
 * its own (reasoning_content, thinking); every other family's rides in the next call's id.
 */
export function carryReasoningInCallIds(content: ModelResponse['content'], family: ProtocolName): CallCarriedContent {
  const texts: string[] = [];
  const reasoning: ReasoningPart[] = [];
  const toolCalls: ToolCallPart[] = [];
  /** Reasoning since the last tool call. */
  let pending: ReasoningPart[] = [];
  for (const part of content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'reasoning') {
      reasoning.push(part);
      if (part.family !== family) pending.push(part);
    } else {
      toolCalls.push({ ...part, id: idWithReasoning(part.id, pending) });
      pending = [];
    }
  }
  return { texts, reasoning, toolCalls };
}

/** The id as the lane made it, without any reasoning it carries. */
export function plainCallId(id: string): string {
  const at = id.indexOf(MARK);
  return at < 0 ? id : id.slice(0, at);
}

/** The reasoning an id carries ([] when none, or when what follows the mark does not read). */
export function reasoningOfCallId(id: string): ReasoningPart[] {
  const at = id.indexOf(MARK);
  return at < 0 ? [] : (decodeStateToken(id.slice(at + 1)) ?? []);
}

/** Where a message's reasoning goes back in the model: before its text, and before each tool call. */
export interface MessageReasoning {
  leading: ReasoningPart[];
  /** By the call's index in the message's tool calls. */
  beforeCall: ReasoningPart[][];
}

/**
 * The reasoning a message's tool calls carry in their ids, or null when none carries any. The
 * first call's opens the turn (Anthropic wants a tool turn to start with its thinking), but for
 * the signatures it ends with (parts with no text of their own: a Gemini thoughtSignature signs
 * the part after it), which stay just before the call.
 */
export function reasoningOfCalls(toolCalls: unknown): MessageReasoning | null {
  if (!Array.isArray(toolCalls)) return null;
  const beforeCall = toolCalls.map((tc: unknown) => {
    const id = typeof tc === 'object' && tc !== null ? (tc as { id?: unknown }).id : undefined;
    return typeof id === 'string' ? reasoningOfCallId(id) : [];
  });
  if (!beforeCall.some((parts) => parts.length > 0)) return null;
  const first = beforeCall[0]!;
  let split = first.length;
  while (split > 0 && isSignatureOnly(first[split - 1]!)) split--;
  beforeCall[0] = first.slice(split);
  return { leading: first.slice(0, split), beforeCall };
}

/** A part that is only a signature over what follows it: no text, no redacted data. */
function isSignatureOnly(p: ReasoningPart): boolean {
  return p.text === '' && p.redacted === undefined && p.signature !== undefined;
}
