// Two gateway processes on one postgres store.
import { severalNodes } from './several-nodes.js';

severalNodes('postgres');
