// Vendor-shaped Gemini bytes shared by the tests of this folder.

/** Gemini ends each SSE event with \r\n\r\n. */
const chunk = (data: unknown): string => `data: ${JSON.stringify(data)}\r\n\r\n`;

const meta = { modelVersion: 'gemini-2.5-flash', responseId: 'Y2xhdWRl' };

// What generativelanguage.googleapis.com streams for thinking + text + a function call, with
// usageMetadata (a running total) on every chunk.
export const vendorStream = [
  chunk({
    candidates: [{ content: { parts: [{ text: 'Considering the sky.', thought: true }], role: 'model' }, index: 0 }],
    usageMetadata: { promptTokenCount: 120, totalTokenCount: 120, cachedContentTokenCount: 100 },
    ...meta,
  }),
  chunk({
    candidates: [{ content: { parts: [{ text: 'The sky ' }], role: 'model' }, index: 0 }],
    usageMetadata: { promptTokenCount: 120, totalTokenCount: 125, cachedContentTokenCount: 100 },
    ...meta,
  }),
  chunk({
    candidates: [{ content: { parts: [{ text: 'is blue ☀️ — ' }, { text: 'très.' }], role: 'model' }, index: 0 }],
    usageMetadata: { promptTokenCount: 120, totalTokenCount: 130, cachedContentTokenCount: 100 },
    ...meta,
  }),
  chunk({
    candidates: [
      {
        content: {
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Paris', days: 2 } }, thoughtSignature: 'CiQB' },
            { functionCall: { name: 'get_time', args: {} } },
          ],
          role: 'model',
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: 120,
      candidatesTokenCount: 20,
      totalTokenCount: 180,
      cachedContentTokenCount: 100,
      thoughtsTokenCount: 40,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 120 }],
    },
    ...meta,
  }),
].join('');
