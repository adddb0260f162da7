// A lost flush reply on the postgres store.
import { lostCommit } from './lost-commit.js';

lostCommit('postgres');
