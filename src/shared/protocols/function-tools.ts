// Tools in the Chat Completions shape, `{"type": "function", "function": {name, description,
// parameters}}`, which Ollama's /api/chat takes too. Other tool types (OpenAI's custom tools)
// are not modeled: skipped.
import type { ToolDef } from '../model/types.js';
import { expectArray, expectObject, expectString, optionalString } from './framing/json-field.js';

/** `typeOptional`: a tool without `type` is a function (Ollama's docs leave it out; OpenAI requires it). */
export function decodeFunctionTools(raw: unknown, typeOptional: boolean): ToolDef[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const tools: ToolDef[] = [];
  expectArray(raw, 'tools').forEach((t, i) => {
    const tool = expectObject(t, `tools[${i}]`);
    const isFunction = tool.type === 'function' || (typeOptional && tool.type === undefined);
    if (!isFunction) return;
    const fn = expectObject(tool.function, `tools[${i}].function`);
    const def: ToolDef = {
      name: expectString(fn.name, `tools[${i}].function.name`),
      // No parameters means a function without arguments.
      parameters:
        fn.parameters === undefined || fn.parameters === null
          ? { type: 'object', properties: {} }
          : expectObject(fn.parameters, `tools[${i}].function.parameters`),
    };
    const description = optionalString(fn, 'description', `tools[${i}].function`);
    if (description !== undefined) def.description = description;
    tools.push(def);
  });
  return tools;
}
