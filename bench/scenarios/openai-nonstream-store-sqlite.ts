// Scenario 1 on the sqlite store (issue 13): see storeScenario in bench/governed-gateway.ts.
import { storeScenario } from '../governed-gateway.js';

export const scenario = storeScenario('sqlite');
