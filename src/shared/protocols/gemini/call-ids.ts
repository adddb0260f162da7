// Gemini function calls often carry no id (it is optional): ids are synthesized in order
// (`call_0`, ...) and a functionResponse without one is paired with the earliest unanswered
// call of the same name.

/** Assigns ids to calls that lack one and pairs responses with them by name. */
export class CallIds {
  private next = 0;
  private readonly unanswered = new Map<string, string[]>();

  call(name: string, id: unknown): string {
    const callId = typeof id === 'string' && id.length > 0 ? id : `call_${this.next++}`;
    const queue = this.unanswered.get(name);
    if (queue === undefined) this.unanswered.set(name, [callId]);
    else queue.push(callId);
    return callId;
  }

  /** A response naming its call's id answers that call (done for a whole turn before pairing by name). */
  claim(name: string, id: unknown): void {
    if (typeof id !== 'string' || id.length === 0) return;
    const queue = this.unanswered.get(name);
    const at = queue?.indexOf(id) ?? -1;
    if (at !== -1) queue?.splice(at, 1);
  }

  response(name: string, id: unknown): string {
    if (typeof id === 'string' && id.length > 0) return id;
    return this.unanswered.get(name)?.shift() ?? `call_${this.next++}`;
  }
}
