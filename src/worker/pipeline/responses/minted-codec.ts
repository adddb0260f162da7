// The Responses codec as the caller's on a lane that names no response of its own (any lane but
// a Responses one): the same codec, but every answer carries the id the gateway minted for it,
// so that the caller's previous_response_id names the record the gateway keeps (decision 241).
// Made per request, only for a Responses request that goes to another protocol's lane.
import type { Codec, StreamEncoder } from '../../../shared/protocols/codec.js';
import type { StreamEvent } from '../../../shared/model/types.js';
import type { ErrorKind } from '../../../shared/errors.js';
import { CODECS } from '../../../shared/protocols/index.js';

class MintedIdEncoder implements StreamEncoder {
  readonly textDeltaTemplate: StreamEncoder['textDeltaTemplate'];

  constructor(
    private readonly inner: StreamEncoder,
    private readonly id: string,
  ) {
    const template = inner.textDeltaTemplate;
    if (template !== undefined) this.textDeltaTemplate = (index) => template.call(inner, index);
  }

  encode(event: StreamEvent): string | Uint8Array {
    if (event.type === 'start') event.id = this.id;
    return this.inner.encode(event);
  }

  error(kind: ErrorKind, message: string): string | Uint8Array {
    return this.inner.error(kind, message);
  }
}

export function mintedIdResponsesCodec(id: string): Codec {
  const base = CODECS.responses;
  return {
    ...base,
    encodeResponse: (resp) => base.encodeResponse({ ...resp, id }),
    createStreamEncoder: () => new MintedIdEncoder(base.createStreamEncoder(), id),
  };
}
