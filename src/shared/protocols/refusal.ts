// Refusing a cross-protocol request rather than changing it: a content part the target
// protocol has no equivalent for, or a setting the answer could not honour after translation,
// is a 400 in the caller's shape (kind `untranslatable`, the protocol's invalid-request type)
// that names the part (or setting) and the target protocol.
// Nothing is dropped silently (docs/compatibility.md lists every rule). The pipeline counts
// each refusal in gateway_translations_refused_total{from,to,reason}.
import { GatewayError } from '../errors.js';
import type { ModelRequest, ProtocolName } from '../model/types.js';

/** What was refused: a content part, or a request setting. Label values of the metric. */
export type RefusalReason = 'content_part' | 'parameter';
export const REFUSAL_REASONS: readonly RefusalReason[] = ['content_part', 'parameter'];

export class TranslationRefused extends GatewayError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super('untranslatable', message);
  }
}

/** `part` names the part as the caller wrote it; `why` says what the target lacks. */
export function refusePart(part: string, target: ProtocolName, why: string): never {
  throw new TranslationRefused('content_part', `content part ${part} cannot be translated to the ${target} protocol of the selected model: ${why}`);
}

export function refuseParameter(setting: string, target: ProtocolName, why: string): never {
  throw new TranslationRefused('parameter', `${setting} cannot be translated to the ${target} protocol of the selected model: ${why}`);
}

/**
 * The refusals every target shares: parts the model could not carry at all, and settings no
 * translated answer can honour. Each encoder calls this first, then refuses what only it lacks.
 */
export function refuseUntranslatable(req: ModelRequest, target: ProtocolName): void {
  if (req.untranslatable !== undefined && req.untranslatable.length > 0) {
    refuseParameter(req.untranslatable[0]!, target, 'a translated answer cannot honour it (send it to a model of the same protocol)');
  }
  for (const m of req.messages) {
    for (const p of m.content) {
      if (p.type === 'unsupported') refusePart(`"${p.what}"`, target, 'the gateway translates no equivalent of it');
    }
  }
}

/** How an image or file part names itself in a refusal. */
export function describeSource(kind: 'image' | 'file', p: { url?: string; mediaType?: string }): string {
  const type = p.mediaType !== undefined ? ` (${p.mediaType})` : '';
  if (p.url === undefined) return `"${kind}"${type} given inline`;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(p.url)?.[1]?.toLowerCase() ?? 'url';
  return `"${kind}"${type} given by ${scheme === 'http' || scheme === 'https' ? 'http(s)' : `${scheme}:`} URL`;
}

const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
};

/** The media type a URL's file extension names, or undefined (never guessed from anything else). */
export function mediaTypeOfUrl(url: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0]!;
  const dot = path.lastIndexOf('.');
  if (dot === -1 || dot < path.lastIndexOf('/')) return undefined;
  return EXTENSION_TYPES[path.slice(dot + 1).toLowerCase()];
}

/** Whether a URL is http(s): a URL the caller's vendor would fetch itself. */
export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
