// The trace export of a compiled config: the first `export:` instance with `module: otlp`
// (load checked its settings and allows one), defaults filled in, header secrets resolved.
import type { CompiledTracing } from '../../shared/config/compiled.js';
import { formatPath } from '../../shared/config/config-path.js';
import type { DeploymentConfig } from '../../shared/config/schema/deployment.js';
import { OtlpExportSettings } from '../../shared/config/schema/export.js';
import { applyDefaults } from '../../shared/config/schema-defaults.js';
import type { Static } from '@sinclair/typebox';
import type { ResolvedSecrets } from './load-result.js';

type Settings = Static<typeof OtlpExportSettings>;

/** A URL with no path (http://host:4318) gets the OTLP traces path, as the collector serves it. */
function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1/traces';
  return url.toString();
}

export function compileTracing(config: DeploymentConfig, secrets: ResolvedSecrets): CompiledTracing | null {
  for (const [name, instance] of Object.entries(config.export ?? {})) {
    if (instance.module !== 'otlp') continue;
    const s = applyDefaults(OtlpExportSettings, instance.settings) as Settings;
    const headers: Record<string, string> = {};
    for (const header of Object.keys(instance.headers ?? {})) headers[header] = secrets.get(formatPath(['export', name, 'headers', header])) ?? '';
    return {
      endpoint: tracesUrl(s.endpoint),
      headers,
      sampleRatio: s.sample_ratio,
      includePrompt: s.include_prompt,
      maxQueueSpans: s.max_queue_spans,
      maxBatchSpans: s.max_batch_spans,
      flushIntervalMs: s.flush_interval_ms,
      timeoutMs: s.timeout_ms,
      serviceName: s.service_name,
    };
  }
  return null;
}
