// The store conformance suite on the postgres store.
import { storeConformance } from './conformance-suite.js';

storeConformance('postgres');
