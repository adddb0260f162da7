// admin-under-load's gateway without its admin load: the same config (governance on, metering,
// 100,000 keys in the sqlite store) serving scenario 1's request. Run the three side by side
// (openai-nonstream,admin-idle,admin-under-load) to split what the admin load costs the data
// plane from what the governed config with 100k keys costs it.
import type { Scenario } from '../scenario.js';
import { scenario as underLoad } from './admin-under-load.js';

export const scenario: Scenario = {
  ...underLoad,
  name: 'admin-idle',
  title: `OpenAI chat, non-stream (scenario 1) on admin-under-load's gateway (metering, 100,000 keys), admin API idle`,
  beside: undefined,
  order: (underLoad.order ?? 12) - 0.5,
};
