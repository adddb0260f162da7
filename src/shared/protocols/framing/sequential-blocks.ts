// The blocks a stream decoder numbers itself, for the wires whose chunks carry no block index
// (gemini, ollama): a block per tool call, and at most one text and one reasoning block open at
// a time, numbered as they open. One per stream; its methods add events to the chunk's list.
import type { ProtocolName, StreamEvent } from '../../model/types.js';

const NONE = -1;

export class SequentialBlocks {
  private next = 0;
  private text = NONE;
  private reasoning = NONE;

  /** A new block's index: one opened and closed at once (a tool call, a whole reasoning part). */
  take(): number {
    return this.next++;
  }

  /** `text` into the open text block, opened (and a reasoning block closed) first; `literal`: its JSON literal, when the fast path read it without escapes. */
  textDelta(out: StreamEvent[], text: string, literal?: string): void {
    this.closeReasoning(out);
    if (this.text === NONE) {
      this.text = this.next++;
      out.push({ type: 'block_start', index: this.text, kind: 'text' });
    }
    out.push({ type: 'text_delta', index: this.text, text, literal });
  }

  /** The open reasoning block's index, opened for `family` when none is (the caller closed the text block). */
  openReasoning(out: StreamEvent[], family: ProtocolName): number {
    if (this.reasoning === NONE) {
      this.reasoning = this.next++;
      out.push({ type: 'block_start', index: this.reasoning, kind: 'reasoning', family });
    }
    return this.reasoning;
  }

  closeText(out: StreamEvent[]): void {
    if (this.text === NONE) return;
    out.push({ type: 'block_stop', index: this.text });
    this.text = NONE;
  }

  closeReasoning(out: StreamEvent[]): void {
    if (this.reasoning === NONE) return;
    out.push({ type: 'block_stop', index: this.reasoning });
    this.reasoning = NONE;
  }

  /** Both open blocks closed: a tool call, or the stream's finish, follows. */
  closeOpen(out: StreamEvent[]): void {
    this.closeText(out);
    this.closeReasoning(out);
  }
}
