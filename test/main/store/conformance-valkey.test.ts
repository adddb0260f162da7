// The store conformance suite on the valkey store.
import { storeConformance } from './conformance-suite.js';

storeConformance('valkey');
