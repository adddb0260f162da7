// Admission as keys grow (100,000 keys): compare req/s and peak RSS with the other key counts.
import { admissionKeysScenario } from '../governed-gateway.js';

export const scenario = admissionKeysScenario('admission-keys-100k', 100000, 130);
