// Model stream events -> Responses SSE events, as the openai SDK's ResponseStream accumulates
// them: every event has a sequence_number; a text block is a message item (output_item.added,
// content_part.added, output_text.delta..., output_text.done, content_part.done,
// output_item.done); a tool block is a function_call item. The final response.completed (or
// response.incomplete) carries the whole response, output and usage, because the SDK replaces
// its snapshot with it; so the encoder keeps each item's text until then.
import type { ErrorKind } from '../../errors.js';
import type { FinishReason, StreamEvent, Usage } from '../../model/types.js';
import type { StreamEncoder } from '../codec.js';
import type { JsonObject } from '../framing/json-field.js';
import { sseFrame } from '../framing/sse.js';
import { flattened } from '../framing/flat-string.js';
import { translateFastPath } from '../fast-path/switch.js';
import { MAX_RUN_SEQUENCE, RUN_SLOT, deltaTemplate, runDeltas, writeNumberedTextRun, type TextDeltaTemplate } from '../fast-path/text-run.js';
import { errorObject } from '../openai/errors.js';
import {
  completedMessageItemJson,
  functionCallItem,
  functionCallItemId,
  inProgressMessageItemJson,
  messageItem,
  messageItemId,
  outputTextPart,
  outputTextPartJson,
  responseJson,
  responseObject,
  type ResponseFields,
} from './response.js';
import { encodeStatus } from './finish-reason.js';
import { OpenReasoningBlocks, type OpenReasoning } from '../reasoning/open-block.js';
import { carriedEncryptedContent, reasoningItemId, summaryOf } from './reasoning.js';

interface OpenItem {
  outputIndex: number;
  itemId: string;
  /** Text of a message item, or arguments of a function call. */
  text: string;
  /**
   * Every text delta came with its literal (no escapes): the text then needs none, and its
   * JSON is the text between quotes, without a scan.
   */
  plain: boolean;
  /** Set for function calls. */
  call?: { id: string; name: string };
  /** `"item_id":<id>,"output_index":<n>,` as JSON.stringify writes them, for the templates. */
  idFields: string;
  /** A text / arguments delta event from after its sequence_number up to its string (flat: see flat-string.ts). */
  textMid: string;
  argsMid: string;
  /** A text delta's template, numbered (fast-path/text-run.ts): made the first time a run comes; null when there can be none. */
  template: TextDeltaTemplate | null | undefined;
}

export class ResponsesStreamEncoder implements StreamEncoder {
  private sequence = 0;
  private id = '';
  private model = '';
  private readonly createdAtSecs = Math.floor(Date.now() / 1000);
  /** Block index -> its item while the block is open. */
  private readonly open = new Map<number, OpenItem>();
  /** Reasoning blocks open, each with the output_index it took (its slot): its item is written once its id is known. */
  private readonly reasoning = new OpenReasoningBlocks();
  /** Finished items by output_index, for the final response (every item is stopped by `end`); messages only with the fast paths off. */
  private readonly output: JsonObject[] = [];
  /** The same items as their JSON text (fast paths on), written once for their done events. */
  private readonly outputJson: string[] = [];
  /** JSON.stringify of the id and the model, made at `start`. */
  private idJson = '""';
  private modelJson = '""';
  private nextOutputIndex = 0;
  private finishReason: FinishReason | undefined;
  private usage: Usage | null = null;
  /** Runs of text deltas are written from a template with each event's sequence number put in by the module. */
  readonly textDeltaTemplate = translateFastPath
    ? (index: number): TextDeltaTemplate | null => {
        const item = this.open.get(index);
        return item === undefined ? null : numberedTemplate(item);
      }
    : undefined;

  encode(event: StreamEvent): string {
    switch (event.type) {
      case 'start': {
        this.id = event.id;
        this.model = event.model;
        if (translateFastPath) {
          // The same response in both: written once, from a template.
          this.idJson = JSON.stringify(this.id);
          this.modelJson = JSON.stringify(this.model);
          const members = `"response":${responseJson(this.fields(true), this.idJson, this.modelJson, '[]')}`;
          return this.templated('response.created', members) + this.templated('response.in_progress', members);
        }
        const response = this.response(true);
        return this.event('response.created', { response }) + this.event('response.in_progress', { response });
      }
      case 'block_start':
        if (event.kind === 'reasoning') {
          this.reasoning.open(event.index, event.family).slot = this.nextOutputIndex++;
          return '';
        }
        return event.kind === 'text' ? this.startMessage(event.index) : this.startCall(event.index, event.id, event.name);
      case 'reasoning_delta': {
        const block = this.reasoning.get(event.index);
        if (block === undefined) return '';
        const outputIndex = block.slot;
        let out = this.openReasoning(block, outputIndex);
        if (block.part.text === '') {
          out += this.event('response.reasoning_summary_part.added', {
            item_id: reasoningItemId(block.part, outputIndex),
            output_index: outputIndex,
            summary_index: 0,
            part: { type: 'summary_text', text: '' },
          });
        }
        block.addText(event.text);
        return (
          out +
          this.event('response.reasoning_summary_text.delta', {
            item_id: reasoningItemId(block.part, outputIndex),
            output_index: outputIndex,
            summary_index: 0,
            delta: event.text,
          })
        );
      }
      case 'reasoning_state':
        this.reasoning.get(event.index)?.setState(event);
        return '';
      case 'text_delta': {
        const item = this.open.get(event.index);
        if (item === undefined) return '';
        item.text += event.text;
        if (event.literal === undefined) item.plain = false;
        // The same bytes as event() writes, from a template: deltas are most of a stream.
        if (translateFastPath) return TEXT_DELTA_HEAD + this.sequence++ + item.textMid + (event.literal ?? JSON.stringify(event.text)) + TEXT_DELTA_TAIL;
        return this.event('response.output_text.delta', {
          item_id: item.itemId,
          output_index: item.outputIndex,
          content_index: 0,
          delta: event.text,
          logprobs: [],
        });
      }
      case 'text_run': {
        const item = this.open.get(event.index);
        if (item === undefined) return '';
        const t = numberedTemplate(item);
        if (t === null || this.sequence + event.bytes.length > MAX_RUN_SEQUENCE)
          return runDeltas(event)
            .map((d) => this.encode(d))
            .join('');
        // The text_delta case's bytes for each delta, numbered in the module; the literals are
        // plain (printable ASCII, no backslash), so the text is their contents and stays plain.
        const run = writeNumberedTextRun(event, t, this.sequence);
        this.sequence += run.events;
        item.text += run.text;
        return run.out;
      }
      case 'tool_args_delta': {
        const item = this.open.get(event.index);
        if (item === undefined) return '';
        item.text += event.json;
        if (translateFastPath) return ARGS_DELTA_HEAD + this.sequence++ + item.argsMid + (event.literal ?? JSON.stringify(event.json)) + ARGS_DELTA_TAIL;
        return this.event('response.function_call_arguments.delta', {
          item_id: item.itemId,
          output_index: item.outputIndex,
          delta: event.json,
        });
      }
      case 'block_stop':
        return this.reasoning.get(event.index) !== undefined ? this.stopReasoning(event.index) : this.stop(event.index);
      case 'finish':
        this.finishReason = event.reason;
        return '';
      case 'usage':
        this.usage = event.usage;
        return '';
      case 'end': {
        let out = '';
        for (const index of this.open.keys()) out += this.stop(index);
        for (const index of this.reasoning.indexes()) out += this.stopReasoning(index);
        if (translateFastPath) {
          // The items were written for their done events: the response takes them as they are.
          const type = encodeStatus(this.finishReason).status === 'incomplete' ? 'response.incomplete' : 'response.completed';
          return out + this.templated(type, `"response":${responseJson(this.fields(false), this.idJson, this.modelJson, `[${this.outputJson.join(',')}]`)}`);
        }
        const response = this.response(false);
        return out + this.event(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
      }
    }
  }

  /** The `error` event, with OpenAI's `error` object too so that the SDK's stream raises it. */
  error(kind: ErrorKind, message: string): string {
    const error = errorObject(kind, message);
    return this.event('error', { code: error.code, message, param: null, error });
  }

  /**
   * A reasoning item's output_item.added, written with its first delta (or at its stop): by then
   * a Responses lane's item id is known (it comes with the block's start), so the item keeps it.
   */
  private openReasoning(block: OpenReasoning, outputIndex: number): string {
    if (block.opened) return '';
    block.opened = true;
    return this.event('response.output_item.added', {
      output_index: outputIndex,
      item: { id: reasoningItemId(block.part, outputIndex), type: 'reasoning', summary: [] },
    });
  }

  /** A reasoning item's done events; its state goes in encrypted_content (reasoning.ts). */
  private stopReasoning(index: number): string {
    const block = this.reasoning.close(index)!;
    const outputIndex = block.slot;
    const p = block.part;
    const itemId = reasoningItemId(p, outputIndex);
    let out = this.openReasoning(block, outputIndex);
    if (p.text !== '') {
      out +=
        this.event('response.reasoning_summary_text.done', { item_id: itemId, output_index: outputIndex, summary_index: 0, text: p.text }) +
        this.event('response.reasoning_summary_part.done', {
          item_id: itemId,
          output_index: outputIndex,
          summary_index: 0,
          part: { type: 'summary_text', text: p.text },
        });
    }
    const done: JsonObject = { id: itemId, type: 'reasoning', summary: summaryOf(p.text), encrypted_content: carriedEncryptedContent(p) };
    this.output[outputIndex] = done;
    if (translateFastPath) this.outputJson[outputIndex] = JSON.stringify(done);
    return out + this.event('response.output_item.done', { output_index: outputIndex, item: done });
  }

  private startMessage(index: number): string {
    const outputIndex = this.nextOutputIndex++;
    const item = openItem(outputIndex, messageItemId(outputIndex));
    this.open.set(index, item);
    if (translateFastPath) {
      // What event() writes below, from templates.
      return (
        this.templated('response.output_item.added', `"output_index":${outputIndex},"item":${inProgressMessageItemJson(outputIndex)}`) +
        this.templated('response.content_part.added', `${item.idFields}"content_index":0,"part":${EMPTY_PART_JSON}`)
      );
    }
    return (
      this.event('response.output_item.added', { output_index: outputIndex, item: messageItem(outputIndex, '', 'in_progress') }) +
      this.event('response.content_part.added', {
        item_id: item.itemId,
        output_index: outputIndex,
        content_index: 0,
        part: outputTextPart(''),
      })
    );
  }

  private startCall(index: number, id: string, name: string): string {
    const outputIndex = this.nextOutputIndex++;
    const item = openItem(outputIndex, functionCallItemId(outputIndex));
    item.call = { id, name };
    this.open.set(index, item);
    return this.event('response.output_item.added', {
      output_index: outputIndex,
      item: functionCallItem(outputIndex, { id, name, arguments: '' }, 'in_progress'),
    });
  }

  private stop(index: number): string {
    const item = this.open.get(index);
    if (item === undefined) return '';
    this.open.delete(index);
    const { outputIndex, itemId, text, call } = item;
    if (call !== undefined) {
      const done = functionCallItem(outputIndex, { id: call.id, name: call.name, arguments: text }, 'completed');
      this.output[outputIndex] = done; // by position: blocks may stop out of order
      if (translateFastPath) this.outputJson[outputIndex] = JSON.stringify(done);
      return (
        this.event('response.function_call_arguments.done', { item_id: itemId, output_index: outputIndex, name: call.name, arguments: text }) +
        this.event('response.output_item.done', { output_index: outputIndex, item: done })
      );
    }
    if (translateFastPath) {
      // The text is in all three: escaped once (or not at all when it needs no escape), the
      // events written from templates; the response takes the item as written here (no object).
      const textJson = item.plain ? `"${text}"` : JSON.stringify(text);
      const part = outputTextPartJson(textJson);
      const itemJson = completedMessageItemJson(outputIndex, part);
      this.outputJson[outputIndex] = itemJson;
      return (
        this.templated('response.output_text.done', `${item.idFields}"content_index":0,"text":${textJson},"logprobs":[]`) +
        this.templated('response.content_part.done', `${item.idFields}"content_index":0,"part":${part}`) +
        this.templated('response.output_item.done', `"output_index":${outputIndex},"item":${itemJson}`)
      );
    }
    const done = messageItem(outputIndex, text, 'completed');
    this.output[outputIndex] = done; // by position: blocks may stop out of order
    return (
      this.event('response.output_text.done', { item_id: itemId, output_index: outputIndex, content_index: 0, text, logprobs: [] }) +
      this.event('response.content_part.done', { item_id: itemId, output_index: outputIndex, content_index: 0, part: outputTextPart(text) }) +
      this.event('response.output_item.done', { output_index: outputIndex, item: done })
    );
  }

  private response(inProgress: boolean): JsonObject {
    return responseObject({ ...this.fields(inProgress), output: inProgress ? [] : this.output });
  }

  private fields(inProgress: boolean): Omit<ResponseFields, 'output'> {
    return { id: this.id, model: this.model, createdAtSecs: this.createdAtSecs, finish: this.finishReason, inProgress, usage: inProgress ? null : this.usage };
  }

  /** event(type, fields) written from a template: `members` is JSON.stringify(fields) without its braces. */
  private templated(type: string, members: string): string {
    return `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.sequence++},${members}}\n\n`;
  }

  private event(type: string, fields: JsonObject): string {
    return sseFrame(JSON.stringify({ type, sequence_number: this.sequence++, ...fields }), type);
  }
}

// A delta event is these, its sequence_number, the item's textMid or argsMid, its string and its tail:
// the bytes event() writes for it, in five pieces (deltas are most of a stream).
const TEXT_DELTA_HEAD = 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":';
const TEXT_DELTA_TAIL = ',"logprobs":[]}\n\n';
const ARGS_DELTA_HEAD = 'event: response.function_call_arguments.delta\ndata: {"type":"response.function_call_arguments.delta","sequence_number":';
const ARGS_DELTA_TAIL = '}\n\n';
/** A message's text part as content_part.added writes it: empty. */
const EMPTY_PART_JSON = outputTextPartJson('""');

/** The text_delta case's bytes around the literal, as a numbered template, for a message item (made once); null for a function call. */
function numberedTemplate(item: OpenItem): TextDeltaTemplate | null {
  if (item.call !== undefined) return null;
  if (item.template === undefined) {
    const t = deltaTemplate(TEXT_DELTA_HEAD + item.textMid + RUN_SLOT + TEXT_DELTA_TAIL);
    item.template = t === null ? null : { ...t, sequenceAt: TEXT_DELTA_HEAD.length };
  }
  return item.template;
}

function openItem(outputIndex: number, itemId: string): OpenItem {
  const idFields = `"item_id":${JSON.stringify(itemId)},"output_index":${outputIndex},`;
  return {
    outputIndex,
    itemId,
    text: '',
    plain: true,
    idFields,
    template: undefined,
    textMid: flattened(`,${idFields}"content_index":0,"delta":`),
    argsMid: flattened(`,${idFields}"delta":`),
  };
}
