// The fast path for the Chat Completions chunk nearly every stream is made of: one text delta
// of choice 0, no finish reason, no usage, no error. Recognised by its shape, its text read
// without parsing the rest; any other chunk (role, tool calls, finish, usage, an unknown field,
// a second choice) returns null and goes through JSON.parse like before.
import { leadingMembersEnd, stringLiteralEnd } from '../fast-path/json-scan.js';

/** Members that may precede `choices` in a text-delta chunk (values plain strings, integers or null). */
function leadingKey(key: string): boolean {
  switch (key) {
    case 'id':
    case 'object':
    case 'created':
    case 'model':
    case 'service_tier':
    case 'system_fingerprint':
      return true;
    default:
      return false;
  }
}

/** The one choice, index 0, whose delta is only content (a search key: cannot occur in a checked head). */
const CHOICE_HEAD = '"choices":[{"index":0,"delta":{"content":';
/** What may follow the content string up to the end of the choices array. */
const CHOICE_TAILS = ['},"logprobs":null,"finish_reason":null}]', '},"finish_reason":null}]', '},"finish_reason":null,"logprobs":null}]'];
/** What may follow the choices array up to the end of the chunk. */
const CHUNK_TAILS = ['}', ',"usage":null}'];

/**
 * Reads text-delta chunks of one stream. Upstreams repeat the same leading members (id,
 * object, created, model...) in every chunk, so the first chunk's are checked member by member
 * and later chunks only compared with them.
 */
export class ChatTextDeltaReader {
  /** The leading members of the last recognised chunk up to `"choices"` (checked), or ''. */
  private head = '';

  /** The delta text of a plain text-delta chunk, or null when the chunk needs the full decoder. */
  read(data: string): string | null {
    // Most chunks start with the last chunk's members: two slice comparisons (a memcmp each)
    // find the choice; otherwise a search does, and the members before it are checked.
    let at = this.head.length;
    if (at === 0 || !sliceIs(data, 0, this.head) || !sliceIs(data, at, CHOICE_HEAD)) {
      at = data.indexOf(CHOICE_HEAD);
      if (at < 0 || leadingMembersEnd(data, leadingKey, 'choices') !== at) return null;
      this.head = data.slice(0, at);
    }
    const litStart = at + CHOICE_HEAD.length;
    const found = stringLiteralEnd(data, litStart);
    if (found === 0) return null;
    const escaped = found < 0;
    const litEnd = escaped ? -found - 1 : found;
    if (litEnd === litStart + 2) return null; // '' adds nothing: the full decoder decides
    if (!endsChunk(data, litEnd)) return null;
    if (!escaped) return data.slice(litStart + 1, litEnd - 1);
    try {
      return JSON.parse(data.slice(litStart, litEnd)) as string;
    } catch {
      return null; // a bad escape: the full decoder reports the chunk
    }
  }
}

/** True when what follows the content string is one of the known null-finish endings. */
function endsChunk(data: string, from: number): boolean {
  for (const t of CHOICE_TAILS) {
    if (!sliceIs(data, from, t)) continue;
    const tail = from + t.length;
    for (const end of CHUNK_TAILS) if (data.length === tail + end.length && sliceIs(data, tail, end)) return true;
    return false;
  }
  return false;
}

/** `data` holds `text` at `at`. A slice compared whole beats startsWith on the sliced strings SSE parsing makes. */
function sliceIs(data: string, at: number, text: string): boolean {
  return data.slice(at, at + text.length) === text;
}
