import { describe, expect, it } from 'vitest';
import { ModelAnswerError, parseModelJson } from './model-answer';

describe('parseModelJson', () => {
  it('parses a bare JSON object', () => {
    expect(parseModelJson('{"a": 1}')).toEqual({ a: 1 });
  });
  it('takes the JSON out of a code fence', () => {
    expect(parseModelJson('```json\n{"a": [1, 2]}\n```')).toEqual({ a: [1, 2] });
    expect(parseModelJson('Here you go:\n```\n{"b": "x"}\n```\nAnything else?')).toEqual({ b: 'x' });
  });
  it('takes the object out of surrounding prose', () => {
    expect(parseModelJson('Sure! {"chosenId": null} Hope that helps.')).toEqual({ chosenId: null });
  });
  it('rejects text with no JSON object or broken JSON', () => {
    expect(() => parseModelJson('I think the second one.')).toThrow(ModelAnswerError);
    expect(() => parseModelJson('{"chosenId": "a",')).toThrow(ModelAnswerError);
  });
});
