// A lost flush reply on the valkey store.
import { lostCommit } from './lost-commit.js';

lostCommit('valkey');
