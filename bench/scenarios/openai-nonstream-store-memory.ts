// Scenario 1 on the memory store (issue 13): see storeScenario in bench/governed-gateway.ts.
import { storeScenario } from '../governed-gateway.js';

export const scenario = storeScenario('memory');
