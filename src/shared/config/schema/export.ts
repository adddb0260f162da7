// Telemetry export instances (e.g. the Prometheus /metrics endpoint). Loose until that work lands.
import { Type } from '@sinclair/typebox';

const ExportInstance = Type.Object(
  {
    module: Type.String({ minLength: 1, description: 'Export module, e.g. `prometheus` (mounts /metrics; needs `settings.buffer_seconds`).' }),
    settings: Type.Record(Type.String(), Type.Unknown(), { default: {}, description: 'Module settings.' }),
  },
  { additionalProperties: true, description: 'An export instance.' },
);

export const ExportSection = Type.Record(Type.String({ minLength: 1 }), ExportInstance, {
  default: {},
  description: 'Export instances by name. Without a `prometheus` instance, /metrics is 404.',
});
