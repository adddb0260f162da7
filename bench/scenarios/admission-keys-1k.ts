// Admission as keys grow (1,000 keys): compare req/s and peak RSS with the other key counts.
import { admissionKeysScenario } from '../governed-gateway.js';

export const scenario = admissionKeysScenario('admission-keys-1k', 1000, 120);
