// Wire turns <-> the model's messages, for the wires whose turns alternate user and assistant
// and carry tool results inside user turns (anthropic, bedrock; gemini on the way in). The model
// keeps a tool result in a `tool` message of its own: a wire turn becomes a message per run of
// parts of one role, and consecutive user and tool messages become one wire turn again.
import type { ContentPart, ModelMessage, Role } from '../model/types.js';
import type { JsonObject } from './framing/json-field.js';

/** One wire turn's parts, added in order, into `out`: a message per run of parts of one role. Made per turn of a request decode. */
export class TurnRuns {
  private run: ContentPart[] = [];
  private role: Role;

  /** `fromUser`: the turn is the wire's user side (else the model's). */
  constructor(
    private readonly out: ModelMessage[],
    private readonly fromUser: boolean,
  ) {
    this.role = fromUser ? 'user' : 'assistant';
  }

  add(part: ContentPart): void {
    const role: Role = !this.fromUser ? 'assistant' : part.type === 'tool_result' ? 'tool' : 'user';
    if (role !== this.role && this.run.length > 0) {
      this.out.push({ role: this.role, content: this.run });
      this.run = [];
    }
    this.role = role;
    this.run.push(part);
  }

  /** The turn's last run. */
  end(): void {
    if (this.run.length > 0) this.out.push({ role: this.role, content: this.run });
  }
}

export interface WireTurn {
  role: 'user' | 'assistant';
  content: JsonObject[];
}

/**
 * The model's messages as wire turns, `blocksOf` writing a message's blocks: a message with none
 * is left out, and one of the same wire role as the turn before joins it (the wire refuses two
 * turns of one role in a row; tool results and user text are one user turn).
 */
export function wireTurns(messages: readonly ModelMessage[], blocksOf: (m: ModelMessage) => JsonObject[]): WireTurn[] {
  const out: WireTurn[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(m);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}
