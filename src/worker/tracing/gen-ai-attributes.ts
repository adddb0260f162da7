// The span attribute names the gateway sets: OpenTelemetry's GenAI semantic conventions
// (gen_ai.*, still incubating, so copied here as OpenTelemetry advises rather than imported from
// @opentelemetry/semantic-conventions/incubating, whose names may change in any release), the
// stable HTTP and error ones from the package, and the gateway's own (gateway.*).
import type { ProtocolName } from '../../shared/model/types.js';

export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
export const GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
/** Only with `include_prompt: true`. */
export const GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';

export const GATEWAY_INGRESS_PROTOCOL = 'gateway.ingress.protocol';
export const GATEWAY_POOL = 'gateway.pool';
export const GATEWAY_LANE = 'gateway.lane';
export const GATEWAY_PROVIDER = 'gateway.provider';
export const GATEWAY_DISPOSITION = 'gateway.disposition';
export const GATEWAY_ATTEMPTS = 'gateway.attempts';
export const GATEWAY_FAILOVER_REASONS = 'gateway.failover.reasons';
export const GATEWAY_FAILOVER_REASON = 'gateway.failover.reason';
export const GATEWAY_ATTEMPT_OUTCOME = 'gateway.attempt.outcome';
export const GATEWAY_KEY_ID = 'gateway.key.id';
export const GATEWAY_GOVERNANCE_GROUP = 'gateway.governance.group';
export const GATEWAY_GOVERNANCE_BUCKET = 'gateway.governance.bucket';

/**
 * gen_ai.provider.name by the lane's wire protocol (the conventions' well-known values; Ollama
 * has none, so its own name). The provider's config name is gateway.provider.
 */
export const GEN_AI_PROVIDER_OF_PROTOCOL: Readonly<Record<ProtocolName, string>> = Object.freeze({
  openai: 'openai',
  responses: 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  bedrock: 'aws.bedrock',
  ollama: 'ollama',
});

/** The attempt outcomes' names on attempt spans (index: AttemptOutcome). */
export const ATTEMPT_OUTCOME_NAMES = [
  'ok',
  'transient_upstream',
  'connect',
  'upstream_timeout',
  'attempt_timeout',
  'hard_down_billing',
  'hard_down_auth',
  'context_length',
  'client_error',
  'caller_abort',
  'untranslatable',
  'missing_credential',
  'mid_stream',
] as const;
