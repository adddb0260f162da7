// Store faults on the postgres store.
import { storeFaults } from './store-faults.js';

storeFaults('postgres');
