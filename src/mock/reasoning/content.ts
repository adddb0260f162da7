// What the mock says when it reasons, and the state it signs that with: fixed, so that tests
// know it, and checkable, so that the mock can tell on the next turn whether the state it gave
// came back byte for byte (verify.ts). A signature is a hash of what it signs, in base64, the
// way vendors' opaque state looks; the mock keeps nothing between requests.
import { createHash } from 'node:crypto';
import type { MockProtocolName } from '../protocols/types.js';

/** The reasoning text, in its stream pieces. */
export const MOCK_REASONING_PIECES: readonly string[] = ['Let me think', ' about that.'];
export const MOCK_REASONING_TEXT = MOCK_REASONING_PIECES.join('');

/** The Responses reasoning item's id. */
export const MOCK_REASONING_ITEM_ID = 'rs_mock_1';

/**
 * The signature the mock gives `subject` in `protocol`: what Anthropic and Bedrock sign (the
 * thinking text), what Gemini signs (the part: `functionCall:<name>` or `text`), the Responses
 * item id its encrypted_content belongs to.
 */
export function mockSignature(protocol: MockProtocolName, subject: string): string {
  return createHash('sha256').update(`mock ${protocol}\n${subject}`).digest('base64');
}

/** Gemini's subjects: a functionCall part of the named function, or the answer's text. */
export function geminiSubject(functionName: string | null): string {
  return functionName === null ? 'text' : `functionCall:${functionName}`;
}
