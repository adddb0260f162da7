// The store conformance suite on the sqlite store.
import { storeConformance } from './conformance-suite.js';

storeConformance('sqlite');
