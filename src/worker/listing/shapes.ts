// A listing in each vendor's own shape, as its SDK reads it. The gateway knows no sizes,
// digests or token limits of the models behind a name, so those fields carry neutral values
// (documented in docs/compatibility.md); what is real is the name a request sends.
import { createHash } from 'node:crypto';
import type { ListedModel } from './catalog.js';

/** Listings have no real creation time: the worker's start, stable for its life. */
const LISTED_AT_SEC = Math.floor(Date.now() / 1000);
const LISTED_AT_ISO = new Date(LISTED_AT_SEC * 1000).toISOString();

function describe(m: ListedModel): string {
  return m.kind === 'pool' ? `gateway pool "${m.id}" (first member on ${m.provider})` : `gateway lane "${m.id}" (${m.upstreamModel} on ${m.provider})`;
}

// --- OpenAI: GET /v1/models, GET /v1/models/{id} ---

export function openaiModel(m: ListedModel): Record<string, unknown> {
  return { id: m.id, object: 'model', created: LISTED_AT_SEC, owned_by: m.provider };
}

export function openaiList(models: readonly ListedModel[]): string {
  return JSON.stringify({ object: 'list', data: models.map(openaiModel) });
}

// --- Anthropic: GET /v1/models (?limit, ?after_id, ?before_id), GET /v1/models/{id} ---

export function anthropicModel(m: ListedModel): Record<string, unknown> {
  return { type: 'model', id: m.id, display_name: m.id, created_at: LISTED_AT_ISO };
}

const ANTHROPIC_LIMIT_DEFAULT = 20;
const ANTHROPIC_LIMIT_MAX = 1000;

/** Anthropic's cursor page: `after_id`/`before_id` name the item the page starts after or ends before. */
export function anthropicList(models: readonly ListedModel[], query: URLSearchParams): string {
  const limitText = query.get('limit');
  const limit =
    limitText === null ? ANTHROPIC_LIMIT_DEFAULT : Math.min(ANTHROPIC_LIMIT_MAX, Math.max(1, Number.parseInt(limitText, 10) || ANTHROPIC_LIMIT_DEFAULT));
  const afterId = query.get('after_id');
  const beforeId = query.get('before_id');
  let from = 0;
  let to = models.length;
  if (afterId !== null) from = models.findIndex((m) => m.id === afterId) + 1;
  if (beforeId !== null) {
    const at = models.findIndex((m) => m.id === beforeId);
    to = at === -1 ? models.length : at;
    from = Math.max(from, to - limit);
  }
  const page = models.slice(from, Math.min(to, from + limit));
  const hasMore = beforeId !== null ? from > 0 : from + page.length < to;
  return JSON.stringify({
    data: page.map(anthropicModel),
    has_more: hasMore,
    first_id: page.length > 0 ? page[0]!.id : null,
    last_id: page.length > 0 ? page[page.length - 1]!.id : null,
  });
}

// --- Gemini: GET /v1beta/models (?pageSize, ?pageToken), GET /v1beta/models/{model} ---

export function geminiModel(m: ListedModel): Record<string, unknown> {
  return {
    name: `models/${m.id}`,
    baseModelId: m.id,
    version: '001',
    displayName: m.id,
    description: describe(m),
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
  };
}

const GEMINI_PAGE_DEFAULT = 50;
const GEMINI_PAGE_MAX = 1000;

/** The page token is the offset of the next page (opaque to clients). */
export function geminiList(models: readonly ListedModel[], query: URLSearchParams): string {
  const sizeText = query.get('pageSize');
  const size = sizeText === null ? GEMINI_PAGE_DEFAULT : Math.min(GEMINI_PAGE_MAX, Math.max(1, Number.parseInt(sizeText, 10) || GEMINI_PAGE_DEFAULT));
  const from = Math.max(0, Number.parseInt(query.get('pageToken') ?? '0', 10) || 0);
  const page = models.slice(from, from + size);
  const body: Record<string, unknown> = { models: page.map(geminiModel) };
  if (from + size < models.length) body.nextPageToken = String(from + size);
  return JSON.stringify(body);
}

// --- Ollama: GET /api/tags, POST /api/show, GET /api/version ---

/** The version /api/version reports: recent enough that Ollama clients enable tools and images. */
const OLLAMA_VERSION = '0.12.0';

function ollamaDetails(m: ListedModel): Record<string, unknown> {
  return { parent_model: '', format: '', family: m.protocol, families: [m.protocol], parameter_size: '', quantization_level: '' };
}

function digestOf(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export function ollamaTags(models: readonly ListedModel[]): string {
  return JSON.stringify({
    models: models.map((m) => ({ name: m.id, model: m.id, modified_at: LISTED_AT_ISO, size: 0, digest: digestOf(m.id), details: ollamaDetails(m) })),
  });
}

export function ollamaShow(m: ListedModel): string {
  return JSON.stringify({
    modelfile: `# ${describe(m)}\nFROM ${m.id}\n`,
    parameters: '',
    template: '',
    details: ollamaDetails(m),
    model_info: {},
    capabilities: ['completion', 'tools', 'vision'],
    modified_at: LISTED_AT_ISO,
  });
}

export function ollamaVersion(): string {
  return JSON.stringify({ version: OLLAMA_VERSION });
}
