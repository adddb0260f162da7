// Two gateway processes on one valkey store.
import { severalNodes } from './several-nodes.js';

severalNodes('valkey');
