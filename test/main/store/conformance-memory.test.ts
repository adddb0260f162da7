// The store conformance suite on the memory store.
import { storeConformance } from './conformance-suite.js';

storeConformance('memory');
