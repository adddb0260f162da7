// The window tags of every kind for the current second, recomputed once per second rather than
// per request (a month tag needs a Date). One per thread; callers read the array at once and
// never keep it (it changes in place when the second changes).
import { WINDOW_KINDS, windowTag } from './windows.js';

export class WindowClock {
  private sec = -1;
  private readonly tags: number[] = new Array<number>(WINDOW_KINDS).fill(0);

  at(nowSec: number): readonly number[] {
    if (nowSec !== this.sec) {
      for (let kind = 0; kind < WINDOW_KINDS; kind++) this.tags[kind] = windowTag(kind, nowSec);
      this.sec = nowSec;
    }
    return this.tags;
  }
}
