// The governed scenario 1 on the valkey store (issue 13); run beside openai-nonstream-governed
// (sqlite). See governedStoreScenario in bench/governed-gateway.ts.
import { governedStoreScenario } from '../governed-gateway.js';

export const scenario = governedStoreScenario('valkey');
