// A stand-in upstream for codec/SDK tests: answers every request with the canned response
// the test set last, optionally in small writes so the SDK's parser sees frames and
// characters split across chunks. Records the last request.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Codec } from '../../src/shared/protocols/codec.js';
import type { ModelResponse, StreamEvent } from '../../src/shared/model/types.js';
import type { ErrorKind } from '../../src/shared/errors.js';

export interface Canned {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export class CannedUpstream {
  next: Canned = { status: 500, headers: {}, body: 'no canned response set' };
  lastRequest: { url: string; body: string } | undefined;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** `pieceBytes` > 0: the body goes out in writes of that many bytes, one per tick. */
  static async start(pieceBytes = 0): Promise<CannedUpstream> {
    let upstream: CannedUpstream | undefined;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        const u = upstream!;
        u.lastRequest = { url: req.url ?? '', body };
        res.writeHead(u.next.status, u.next.headers);
        const bytes = Buffer.from(u.next.body);
        if (pieceBytes <= 0) {
          res.end(bytes);
          return;
        }
        let at = 0;
        const write = (): void => {
          if (at >= bytes.length) {
            res.end();
            return;
          }
          res.write(bytes.subarray(at, at + pieceBytes));
          at += pieceBytes;
          setImmediate(write);
        };
        write();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    upstream = new CannedUpstream(server, (server.address() as AddressInfo).port);
    return upstream;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A 200 answer whose body is `events` as the codec's stream encoder writes them, then (when
 * given) `error` as the codec's own mid-stream error event of that kind.
 */
export function cannedStream(codec: Codec, events: readonly StreamEvent[], error?: string, kind: ErrorKind = 'upstream_error'): Canned {
  const enc = codec.createStreamEncoder();
  const parts = events.map((e) => enc.encode(e));
  if (error !== undefined) parts.push(enc.error(kind, error));
  const body = parts.every((p) => typeof p === 'string') ? parts.join('') : Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
  return { status: 200, headers: { 'content-type': codec.streamContentType }, body };
}

/** A 200 JSON answer: `response` as the codec's non-stream encoder writes it. */
export function cannedResponse(codec: Codec, response: ModelResponse): Canned {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: codec.encodeResponse(response) };
}
