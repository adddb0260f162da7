// A reasoning block an encoder has open: its text so far and its state, kept until the block
// stops, when every protocol writes (or hands on) the state. One per block index.
import type { ProtocolName, ReasoningPart, ReasoningStateEvent } from '../../model/types.js';

export class OpenReasoning {
  readonly part: ReasoningPart;
  /** Whether the encoder has written anything of the block yet (its opening event). */
  opened = false;
  /** The encoder's own place for the block (the Responses output_index), -1 until it sets one. */
  slot = -1;

  constructor(family: ProtocolName) {
    this.part = { type: 'reasoning', text: '', family };
  }

  addText(text: string): void {
    this.part.text += text;
  }

  setState(e: ReasoningStateEvent): void {
    if (e.signature !== undefined) this.part.signature = e.signature;
    if (e.redacted !== undefined) this.part.redacted = e.redacted;
    if (e.itemId !== undefined) this.part.itemId = e.itemId;
  }
}

/**
 * Open reasoning blocks by index (an encoder has at most a few at once). The map is made with
 * the first reasoning block, so a stream without reasoning allocates nothing here.
 */
export class OpenReasoningBlocks {
  private blocks: Map<number, OpenReasoning> | null = null;

  open(index: number, family: ProtocolName): OpenReasoning {
    const block = new OpenReasoning(family);
    (this.blocks ??= new Map()).set(index, block);
    return block;
  }

  get(index: number): OpenReasoning | undefined {
    return this.blocks?.get(index);
  }

  /** The block, removed (undefined when `index` is not a reasoning block). */
  close(index: number): OpenReasoning | undefined {
    const block = this.blocks?.get(index);
    if (block !== undefined) this.blocks!.delete(index);
    return block;
  }

  /** The indexes of the blocks still open, in a list of their own (closing them is safe while iterating it). */
  indexes(): number[] {
    return this.blocks === null ? [] : [...this.blocks.keys()];
  }
}

/** The state event for `part`'s state (only the fields it has), or null when it has none. */
export function stateEventOf(index: number, part: ReasoningPart): ReasoningStateEvent | null {
  if (part.signature === undefined && part.redacted === undefined && part.itemId === undefined) return null;
  const e: ReasoningStateEvent = { type: 'reasoning_state', index };
  if (part.signature !== undefined) e.signature = part.signature;
  if (part.redacted !== undefined) e.redacted = part.redacted;
  if (part.itemId !== undefined) e.itemId = part.itemId;
  return e;
}
