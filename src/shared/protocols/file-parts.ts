// File (document) parts on their way to protocols without a document kind of their own: a
// plain-text file is its words, so it travels as text where the target takes no text files.
import { Buffer } from 'node:buffer';
import type { FilePart } from '../model/types.js';

const TEXT_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/markdown', 'text/csv']);

/** The words of an inline plain-text file (with its name as a heading), else undefined. */
export function inlineFileText(part: FilePart): string | undefined {
  if (part.data === undefined || part.mediaType === undefined || !TEXT_TYPES.has(part.mediaType.toLowerCase())) return undefined;
  const text = Buffer.from(part.data, 'base64').toString('utf8');
  return part.name === undefined ? text : `${part.name}\n\n${text}`;
}

/** OpenAI wants a file name with inline file data; the caller's protocol may have given none. */
export function defaultFileName(mediaType: string): string {
  if (mediaType === 'application/pdf') return 'document.pdf';
  if (mediaType.startsWith('text/')) return 'document.txt';
  return 'document';
}
