// Store faults on the valkey store.
import { storeFaults } from './store-faults.js';

storeFaults('valkey');
