// The internal embedding request and response: what OpenAI `/v1/embeddings`, Gemini
// `:embedContent` / `:batchEmbedContents` and Ollama `/api/embed` / `/api/embeddings` share, so
// that each protocol decodes into it and encodes from it (three codecs, six directions).
//
// The translated subset: the inputs (text; OpenAI token ids only to an OpenAI lane), the output
// size, and the vectors in input order with the input tokens. Settings only one protocol has are
// kept so that the same protocol can honour them, and a hop that cannot is refused or drops them
// by the rule named beside each field (docs/compatibility.md).

/** One thing to embed: text, or (OpenAI only) the ids of its tokens. */
export type EmbeddingInput = { type: 'text'; text: string } | { type: 'tokens'; tokens: number[] };

/** Gemini's task types: a hint that changes the vector, so another protocol cannot honour it. */
export const GEMINI_TASK_TYPES = [
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
] as const;
export type GeminiTaskType = (typeof GEMINI_TASK_TYPES)[number];

export interface EmbeddingRequest {
  /** What the caller named (a pool or lane); encoders write the lane's upstream model instead. */
  model: string;
  /** One vector is answered per input, in this order. Never empty. */
  inputs: EmbeddingInput[];
  /** Output size (OpenAI `dimensions`, Gemini `outputDimensionality`, Ollama `dimensions`). */
  dimensions?: number;
  /** Gemini `taskType` (one for the whole request): refused by the other protocols. */
  taskType?: GeminiTaskType;
  /** Gemini `title` of each input that has one (RETRIEVAL_DOCUMENT), by input index: refused by the others. */
  titles?: Array<string | undefined>;
  /** Ollama `truncate` (default true): false refuses an over-long input. Dropped by the others, whose own rule applies (OpenAI refuses over-long input, Gemini truncates). */
  truncate?: boolean;
  /** Ollama `keep_alive`: how long the model stays loaded, the server's bookkeeping; dropped by the others. */
  keepAlive?: string | number;
  /** OpenAI `user`: an end-user id for the vendor's abuse monitoring; dropped by the others. */
  user?: string;
  /**
   * How the caller wants the vectors written (OpenAI `encoding_format`; the others write floats).
   * Not a setting of the lane: the gateway writes base64 itself when the caller asked for it.
   */
  encodingFormat: 'float' | 'base64';
  /** Parts of the caller's inputs the model has no kind for (an image to embed...), as the caller named them: refused by every encoder. */
  untranslatable?: string[];
}

/** The input tokens an embedding request used. `estimated`: the upstream reported none, so the gateway counted. */
export interface EmbeddingUsage {
  inputTokens: number;
  estimated: boolean;
}

export interface EmbeddingResponse {
  /** The model the upstream named, or the one asked for when it named none. */
  model: string;
  /** One vector per input, in input order. */
  vectors: number[][];
  usage: EmbeddingUsage;
}
