// One model request of the mock and its response's state, shared by the reading (server.ts)
// and the answering (answer.ts) of the exchange.
import { STATUS_CODES } from 'node:http';
import type { Buffer } from 'node:buffer';
import type { HttpRequest, HttpResponse } from '../shared/uws.js';
import type { BodyFacts } from './body-memo.js';
import type { MockProtocol, RequestFacts, RouteFacts } from './protocols/types.js';
import type { RenderedStream } from './render-cache.js';
import type { MockProvider } from './server.js';
import type { MockSettings } from './settings.js';

const STATUS_LINES: string[] = [];
for (let code = 100; code < 600; code++) STATUS_LINES[code] = `${code} ${STATUS_CODES[code] ?? 'Status'}`;
export const statusLine = (code: number): string => STATUS_LINES[code] ?? `${code} Status`;

type ExchangeState = 'reading' | 'waiting' | 'streaming' | 'hanging' | 'done' | 'aborted' | 'reset';

/** One model request and its response. */
export class Exchange {
  state: ExchangeState = 'reading';
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** Header names and values, alternating: cheaper to collect than an object on the hot path. */
  readonly rawHeaders: string[] = [];
  /** x-mock-* headers, in arrival order; null when there are none. */
  overrides: Array<[string, string]> | null = null;
  bodyParts: Buffer[] | null = null;
  bodyBytes = 0;
  facts: RequestFacts | null = null;
  /** What the body said; its answer slots serve requests whose settings came from the body alone. */
  reading: BodyFacts | null = null;
  settings: MockSettings;
  toolName: string | null = null;
  /** The answer starts with reasoning (setting `reasoning`, or the request asked for it). */
  reasoning = false;
  timer: NodeJS.Timeout | null = null;
  rendered: RenderedStream | null = null;
  nextPiece = 0;
  /** The connection is closed; the response must not be touched any more. */
  gone = false;
  /** Pieces to send before destroying the connection (fault reset_during); -1 = all. */
  cutAfterPieces = -1;
  /** hold_last: the last piece may go (the client released the stream, or the hold ran out). */
  released = false;

  constructor(
    readonly provider: MockProvider,
    readonly protocol: MockProtocol,
    readonly res: HttpResponse,
    req: HttpRequest,
    readonly route: RouteFacts,
    /** A problem with the path, answered once the body is read (so it is still recorded). */
    readonly routeError: string | null,
  ) {
    this.method = req.getMethod().toUpperCase();
    this.path = req.getUrl();
    this.query = req.getQuery() ?? '';
    this.settings = provider.runSettings;
    const rawHeaders = this.rawHeaders;
    req.forEach((key, value) => {
      rawHeaders.push(key, value);
      if (key.startsWith('x-mock-')) (this.overrides ??= []).push([key.slice(7), value]);
    });
  }

  get open(): boolean {
    return this.state !== 'done' && this.state !== 'aborted' && this.state !== 'reset';
  }
}
