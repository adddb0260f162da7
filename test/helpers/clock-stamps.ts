// The stamps a gateway or a codec takes from its own clock (Ollama's and Responses' created_at,
// OpenAI's created), masked digit for digit, so that two runs' bytes compare equal but for them.

export function maskClockStamps(text: string): string {
  return text.replace(/"created_at":"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"created_at":"<clock>"').replace(/"(created_at|created)":\d+/g, '"$1":<clock>');
}
