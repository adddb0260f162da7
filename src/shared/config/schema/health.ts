// Active health probing of lanes.
import { Type } from '@sinclair/typebox';

export const HealthSection = Type.Object(
  {
    mode: Type.Union([Type.Literal('none'), Type.Literal('dead'), Type.Literal('active')], {
      default: 'none',
      description: '`none`: no probes; `dead`: re-probe only tripped lanes; `active`: probe every lane with a one-token billable request per interval.',
    }),
    interval_secs: Type.Number({
      exclusiveMinimum: 0,
      default: 30,
      description: 'Seconds between probes; values below 1 count as 1. The first tick is skipped.',
    }),
    timeout_secs: Type.Number({ exclusiveMinimum: 0, default: 5, description: 'Probe timeout in seconds; values below 1 count as 1.' }),
  },
  { additionalProperties: false, default: {}, description: 'Lane health probing. A lane without a key is skipped.' },
);
