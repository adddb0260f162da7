// What the six SDK adapters share: the client around one request and its two sends (whole or
// streamed), the table from a protocol's finish reasons to the normalized ones, and the answer
// an SDK's reply is gathered into (text, tool calls, content-bearing stream events).
import type { ProtocolName } from '../../../src/shared/model/types.js';
import { parseArguments, unknownFinish } from './types.js';
import type { ChatOptions, NormalizedFinish, NormalizedResult, NormalizedUsage, ProtocolClient, ToolCallOut } from './types.js';

/** The two ways an adapter sends the request it built: whole, or streamed (the answer counts the events). */
interface Sends<R> {
  whole(request: R, answer: Answer): Promise<NormalizedResult>;
  streamed(request: R, answer: Answer): Promise<NormalizedResult>;
}

/** A client of `protocol`: each chat builds the SDK's request from the options once, then sends it as asked. */
export function sdkClient<R>(protocol: ProtocolName, build: (opts: ChatOptions) => R, sends: Sends<R>): ProtocolClient {
  return {
    name: protocol,
    async chat(opts: ChatOptions): Promise<NormalizedResult> {
      const request = build(opts);
      return opts.stream ? sends.streamed(request, new Answer(protocol, opts.onChunk)) : sends.whole(request, new Answer(protocol));
    },
  };
}

/**
 * The finish reasons of `protocol` the adapter knows, listed under the normalized finish each
 * one is, as a function; any other value throws, naming it.
 */
export function finishTable(
  protocol: ProtocolName,
  reasons: Readonly<Partial<Record<NormalizedFinish, readonly string[]>>>,
): (reason: string | null | undefined) => NormalizedFinish {
  const table = new Map<string, NormalizedFinish>();
  for (const [finish, values] of Object.entries(reasons) as Array<[NormalizedFinish, readonly string[]]>) for (const v of values) table.set(v, finish);
  return (reason) => table.get(reason ?? '') ?? unknownFinish(protocol, reason);
}

interface PartialCall {
  id?: string;
  name: string;
  args: string;
}

/**
 * One answer as it is read: its text, the tool calls that came whole and the ones a stream
 * sends in pieces (by block index, in index order), and how many content-bearing stream events
 * there were (0 for a whole answer: only a streamed one is told `onChunk`).
 */
export class Answer {
  text = '';
  chunks = 0;
  private readonly calls: ToolCallOut[] = [];
  private readonly partial = new Map<number, PartialCall>();

  constructor(
    private readonly protocol: ProtocolName,
    private readonly onChunk?: () => void,
  ) {}

  /** A content-bearing stream event: counted, and the caller's onChunk called. */
  chunk(): void {
    this.chunks++;
    this.onChunk?.();
  }

  /** A text delta: appended and counted as an event (an empty one too). */
  delta(text: string): void {
    this.text += text;
    this.chunk();
  }

  /** Tool calls that came whole. */
  call(...calls: ToolCallOut[]): void {
    this.calls.push(...calls);
  }

  /** A stream event with whole text and tool calls: counted only when it carries either. */
  content(text: string, calls: readonly ToolCallOut[]): void {
    if (text === '' && calls.length === 0) return;
    this.text += text;
    this.call(...calls);
    this.chunk();
  }

  /** A tool call whose arguments follow in pieces, opened at block `index`. */
  openCall(index: number, id: string | undefined, name: string, args = ''): void {
    this.partial.set(index, { id, name, args });
  }

  /** A piece of the arguments of the call open at `index`, counted as an event; an unknown index throws. */
  callDelta(index: number, args: string): void {
    const acc = this.partial.get(index);
    if (acc === undefined) throw new Error(`${this.protocol} adapter: tool arguments for unknown block ${index}`);
    acc.args += args;
    this.chunk();
  }

  /** Chat Completions' form: pieces of id, name and arguments by index, the call opened by its first piece. */
  mergeCall(index: number, id: string | undefined, name: string | undefined, args: string | undefined): void {
    let acc = this.partial.get(index);
    if (acc === undefined) this.partial.set(index, (acc = { name: '', args: '' }));
    if (id) acc.id = id;
    if (name) acc.name += name;
    if (args) acc.args += args;
  }

  /** The whole calls, then the pieced ones in index order with their arguments parsed. */
  get toolCalls(): ToolCallOut[] {
    const pieced = [...this.partial.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => ({ id: t.id, name: t.name, arguments: parseArguments(t.args) }));
    return [...this.calls, ...pieced];
  }

  result(finish: NormalizedFinish, usage: NormalizedUsage): NormalizedResult {
    return { text: this.text, toolCalls: this.toolCalls, finish, usage, chunks: this.chunks };
  }
}
