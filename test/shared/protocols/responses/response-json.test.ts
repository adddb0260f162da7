// The stream encoder writes response.created and response.completed from a template
// (responseJson); these are the bytes JSON.stringify writes for the same Response object.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  completedMessageItemJson,
  functionCallItem,
  inProgressMessageItemJson,
  messageItem,
  outputTextPart,
  outputTextPartJson,
  responseJson,
  responseObject,
  type ResponseFields,
} from '../../../../src/shared/protocols/responses/response.js';
import type { FinishReason } from '../../../../src/shared/model/types.js';

const FINISHES: Array<FinishReason | undefined> = [undefined, 'stop', 'length', 'content_filter', 'tool_calls'];
const USAGES = [
  null,
  { input: 12, output: 50, cacheRead: 3, cacheCreation: 4 },
  { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 },
  { input: 2 ** 40, output: 1.5, cacheRead: 0, cacheCreation: 0 },
];
const IDS = ['resp_1', '', 'quote " backslash \\ tab \t é \u2028 😀'];

describe('responseJson', () => {
  it('writes what JSON.stringify writes for responseObject, for every status, usage and odd id', () => {
    const text = 'Hello "world"\n';
    const output = [messageItem(0, text, 'completed'), functionCallItem(1, { id: 'call_1', name: 'f', arguments: '{"a":1}' }, 'completed')];
    const outputJson = `[${completedMessageItemJson(0, outputTextPartJson(JSON.stringify(text)))},${JSON.stringify(output[1])}]`;
    let checked = 0;
    for (const finish of FINISHES) {
      for (const usage of USAGES) {
        for (const id of IDS) {
          for (const inProgress of [true, false]) {
            const f: ResponseFields = { id, model: `${id}-model`, createdAtSecs: 1_764_000_000, finish, inProgress, output: inProgress ? [] : output, usage };
            const expected = JSON.stringify(responseObject(f));
            assert.equal(responseJson(f, JSON.stringify(id), JSON.stringify(f.model), inProgress ? '[]' : outputJson), expected);
            checked++;
          }
        }
      }
    }
    assert.equal(checked, FINISHES.length * USAGES.length * IDS.length * 2);
  });

  it('writes the message items and parts of the stream events as JSON.stringify does', () => {
    for (const outputIndex of [0, 1, 17]) {
      assert.equal(inProgressMessageItemJson(outputIndex), JSON.stringify(messageItem(outputIndex, '', 'in_progress')));
      for (const text of ['', 'x', 'quote " and \\ and \n']) {
        const part = outputTextPartJson(JSON.stringify(text));
        assert.equal(part, JSON.stringify(outputTextPart(text)));
        assert.equal(completedMessageItemJson(outputIndex, part), JSON.stringify(messageItem(outputIndex, text, 'completed')));
      }
    }
  });
});
