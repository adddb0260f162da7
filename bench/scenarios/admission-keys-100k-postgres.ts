// Admission with 100,000 keys in the postgres store (issue 13): compare with admission-keys-100k (sqlite).
import { admissionKeysScenario } from '../governed-gateway.js';

export const scenario = admissionKeysScenario('admission-keys-100k-postgres', 100000, 131, 'postgres');
