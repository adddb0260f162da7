// What a request asks its answer to be, read from each protocol's own fields (as the vendor
// reads them, independently of the gateway's codecs): JSON of a schema or any JSON (structured
// output), a call of one named tool (a forced tool choice), and each declared tool's input
// schema, so that the mock's answer validates against what was asked.
import { arrayAt, objectAt, stringAt, type JsonObject } from './json-read.js';
import type { MockProtocolName } from './types.js';

export interface AnswerShape {
  /** Structured output: a JSON Schema, `{}` for JSON mode (any JSON object), or null (plain text). */
  readonly outputSchema: JsonObject | null;
  /** The tool a forced tool choice names, or null. */
  readonly forcedTool: string | null;
  /** The tool choice forbids tool calls (`none`): the answer is text. */
  readonly toolsOff: boolean;
  /** Input schema of each declared tool, by name. */
  readonly toolSchemas: ReadonlyMap<string, JsonObject>;
}

const ANY_OBJECT: JsonObject = Object.freeze({ type: 'object' }) as JsonObject;

export function readAnswerShape(protocol: MockProtocolName, body: JsonObject): AnswerShape {
  const toolSchemas = new Map<string, JsonObject>();
  const declare = (name: unknown, schema: unknown): void => {
    const n = stringAt(name);
    if (n !== null) toolSchemas.set(n, objectAt(schema) ?? ANY_OBJECT);
  };
  switch (protocol) {
    case 'openai': {
      for (const t of arrayAt(body.tools) ?? []) declare(objectAt(objectAt(t)?.function)?.name, objectAt(objectAt(t)?.function)?.parameters);
      const format = objectAt(body.response_format);
      const choice = objectAt(body.tool_choice);
      return {
        outputSchema:
          format?.type === 'json_object' ? ANY_OBJECT : format?.type === 'json_schema' ? (objectAt(objectAt(format.json_schema)?.schema) ?? ANY_OBJECT) : null,
        forcedTool: choice?.type === 'function' ? stringAt(objectAt(choice.function)?.name) : null,
        toolsOff: body.tool_choice === 'none',
        toolSchemas,
      };
    }
    case 'responses': {
      for (const t of arrayAt(body.tools) ?? []) declare(objectAt(t)?.name, objectAt(t)?.parameters);
      const format = objectAt(objectAt(body.text)?.format);
      const choice = objectAt(body.tool_choice);
      return {
        outputSchema: format?.type === 'json_object' ? ANY_OBJECT : format?.type === 'json_schema' ? (objectAt(format.schema) ?? ANY_OBJECT) : null,
        forcedTool: choice?.type === 'function' ? stringAt(choice.name) : null,
        toolsOff: body.tool_choice === 'none',
        toolSchemas,
      };
    }
    case 'anthropic': {
      for (const t of arrayAt(body.tools) ?? []) declare(objectAt(t)?.name, objectAt(t)?.input_schema);
      const format = objectAt(objectAt(body.output_config)?.format) ?? objectAt(body.output_format);
      const choice = objectAt(body.tool_choice);
      return {
        outputSchema: format?.type === 'json_schema' ? (objectAt(format.schema) ?? ANY_OBJECT) : null,
        forcedTool: choice?.type === 'tool' ? stringAt(choice.name) : null,
        toolsOff: choice?.type === 'none',
        toolSchemas,
      };
    }
    case 'gemini': {
      for (const t of arrayAt(body.tools) ?? []) {
        for (const d of arrayAt(objectAt(t)?.functionDeclarations) ?? [])
          declare(objectAt(d)?.name, objectAt(d)?.parametersJsonSchema ?? objectAt(d)?.parameters);
      }
      const g = objectAt(body.generationConfig);
      const json = g?.responseMimeType === 'application/json';
      const schema = objectAt(g?.responseJsonSchema) ?? objectAt(g?.responseSchema);
      const fcc = objectAt(objectAt(body.toolConfig)?.functionCallingConfig);
      const allowed = arrayAt(fcc?.allowedFunctionNames);
      return {
        outputSchema: json ? (schema ?? ANY_OBJECT) : null,
        forcedTool: fcc?.mode === 'ANY' && allowed !== null && allowed.length === 1 ? stringAt(allowed[0]) : null,
        toolsOff: fcc?.mode === 'NONE',
        toolSchemas,
      };
    }
    case 'bedrock': {
      const config = objectAt(body.toolConfig);
      for (const t of arrayAt(config?.tools) ?? []) {
        const spec = objectAt(objectAt(t)?.toolSpec);
        declare(spec?.name, objectAt(spec?.inputSchema)?.json);
      }
      const def = objectAt(objectAt(objectAt(objectAt(body.outputConfig)?.textFormat)?.structure)?.jsonSchema);
      return {
        outputSchema: def === null ? null : parsedSchema(def.schema),
        forcedTool: stringAt(objectAt(objectAt(config?.toolChoice)?.tool)?.name),
        toolsOff: false, // Converse has no "none"
        toolSchemas,
      };
    }
    case 'ollama': {
      for (const t of arrayAt(body.tools) ?? []) declare(objectAt(objectAt(t)?.function)?.name, objectAt(objectAt(t)?.function)?.parameters);
      return { outputSchema: body.format === 'json' ? ANY_OBJECT : objectAt(body.format), forcedTool: null, toolsOff: false, toolSchemas };
    }
  }
}

/** Converse carries the schema as JSON text. */
function parsedSchema(text: unknown): JsonObject {
  if (typeof text !== 'string') return ANY_OBJECT;
  try {
    return objectAt(JSON.parse(text)) ?? ANY_OBJECT;
  } catch {
    return ANY_OBJECT;
  }
}
