// Server-sent-event frames as the vendors write them.

/** `data: {json}` + blank line (OpenAI chat). */
export function sseData(payload: unknown): string {
  return 'data: ' + JSON.stringify(payload) + '\n\n';
}

/** `event: name` + `data: {json}` + blank line (Responses, Anthropic). */
export function sseEvent(name: string, payload: unknown): string {
  return 'event: ' + name + '\ndata: ' + JSON.stringify(payload) + '\n\n';
}
