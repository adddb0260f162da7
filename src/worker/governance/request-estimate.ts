// One request's estimate, as admission reserves it (src/shared/governance/cost-estimate.ts has
// the rules): its input and output tokens, and their price under a chain group's rate card at
// the dearest lane the request may be served by (the direct lane, or any member of the pool).
// One object per worker, refilled for each request that needs it: nothing is allocated per
// request. The target's lane ids and output cap are worked out once per runtime object.
import type { Buffer } from 'node:buffer';
import type { CardRates } from '../../shared/governance/card-rates.js';
import { inputTokens, type BinaryScan } from '../../shared/governance/cost-estimate.js';
import { COST_ESTIMATORS } from '../../shared/governance/estimators.js';
import { costMicrosAt } from '../../shared/governance/pricing.js';
import type { ProtocolName } from '../../shared/model/types.js';
import type { LaneRuntime, PoolRuntime } from '../runtime.js';
import type { Price } from './price.js';

/** What admission is told the request goes to. */
export type AdmissionTarget = PoolRuntime | LaneRuntime;

/** A target's lanes as pricing sees them, made once per runtime object. */
class TargetLanes {
  readonly laneIds: readonly number[];
  /** The largest max_output_tokens of its lanes; 0 when none sets one. */
  readonly maxOutputTokens: number;
  /** The last card priced for this target, and the dearest rates under it (a one-entry memo:
   * a target is mostly asked about by the same few groups). */
  card: CardRates | null = null;
  inputRate = 0;
  outputRate = 0;

  constructor(lanes: readonly LaneRuntime[]) {
    this.laneIds = lanes.map((l) => l.servedBy.laneId);
    let cap = 0;
    for (const l of lanes) cap = Math.max(cap, l.compiled.maxOutputTokens);
    this.maxOutputTokens = cap;
  }

  rates(card: CardRates): void {
    if (card === this.card) return;
    let input = 0;
    let output = 0;
    for (const id of this.laneIds) {
      const r = card.of(id);
      if (r === null) continue;
      input = Math.max(input, r.input_micros_per_mtok, r.cache_read_micros_per_mtok, r.cache_creation_micros_per_mtok);
      output = Math.max(output, r.output_micros_per_mtok);
    }
    this.card = card;
    this.inputRate = input;
    this.outputRate = output;
  }
}

const targets = new WeakMap<object, TargetLanes>();

function lanesOf(target: AdmissionTarget): TargetLanes {
  let t = targets.get(target);
  if (t === undefined) {
    t = new TargetLanes('members' in target ? target.members : [target]);
    targets.set(target, t);
  }
  return t;
}

export function targetName(target: AdmissionTarget): string {
  return target.compiled.name;
}

export class RequestEstimate {
  inputTokens = 0;
  outputTokens = 0;
  /** The ingress protocol (its estimator also converts relayed bytes on an abort). */
  protocol: ProtocolName = 'openai';
  private target: TargetLanes | null = null;
  private readonly scan: BinaryScan = { bytes: 0, parts: 0 };
  /** The last price asked about for this request, and its answer (chains repeat a price). */
  private priced: Price | null = null;
  private pricedMicros = 0;

  /** Estimate the request (`head`: its body as read, whole or the members the path read). */
  fill(protocol: ProtocolName, body: Buffer, head: unknown, target: AdmissionTarget, defaultOutput: number): void {
    const estimator = COST_ESTIMATORS[protocol];
    const scan = this.scan;
    scan.bytes = 0;
    scan.parts = 0;
    estimator.scanBinary(body, scan);
    const lanes = lanesOf(target);
    this.protocol = protocol;
    this.target = lanes;
    this.inputTokens = inputTokens(body.length, scan, estimator);
    const cap = estimator.outputCap(head);
    this.outputTokens = cap >= 0 ? cap : lanes.maxOutputTokens > 0 ? lanes.maxOutputTokens : defaultOutput;
    this.priced = null;
  }

  /** What the estimate costs under `price`'s card, rounded up, plus its fee. */
  micros(price: Price): number {
    if (price === this.priced) return this.pricedMicros;
    let micros = price.feeMicros;
    const card = price.rates;
    if (card !== null && this.target !== null) {
      const t = this.target;
      t.rates(card);
      micros += costMicrosAt(t.inputRate, t.outputRate, this.inputTokens, this.outputTokens);
    }
    this.priced = price;
    this.pricedMicros = micros;
    return micros;
  }

  get tokens(): number {
    return this.inputTokens + this.outputTokens;
  }
}
