import * as assert from 'node:assert/strict';
import { judgeFilePath, parseJudgeFile } from '../../src/core/prompt-tests/judge-file';

const label = (name: string, expected = 'pass'): Record<string, unknown> => ({
  name,
  rubric: 'Says how long a refund takes.',
  transcript: `caller: refund?\nassistant (Billing): ${name}`,
  expected,
});

describe('prompt tests: judge files', () => {
  it("reads a judge file with comments, its defaults repeat 1 and minKappa 0.6, and each label's place", () => {
    const text = `// labelled by support\n{ "target": { "tenantId": 1 }, "judge": "Call Judge", "labels": [${JSON.stringify(label('five days'))}, ${JSON.stringify(label('no answer', 'fail'))},] }`;
    const { file, problems } = parseJudgeFile(text);
    assert.deepEqual(problems, []);
    assert.deepEqual([file?.judge, file?.repeat, file?.minKappa, file?.target?.tenantId], ['Call Judge', 1, 0.6, 1]);
    assert.deepEqual(
      file?.labels.map((l) => [l.name, l.expected]),
      [
        ['five days', 'pass'],
        ['no answer', 'fail'],
      ],
    );
    const second = file?.labels[1];
    assert.ok(
      second &&
        text.slice(second.range.offset, second.range.offset + second.range.length).startsWith('{"name":"no answer"'),
    );
  });

  it('ignores a UTF-8 byte-order mark, and places ranges in the text as given', () => {
    const text = `\ufeff${JSON.stringify({ judge: 7, labels: [label('a')] })}`;
    const { file, problems } = parseJudgeFile(text);
    assert.deepEqual(problems, []);
    assert.equal(file?.judge, 7);
    assert.equal(text[file?.labels[0]?.range.offset ?? 0], '{');
    const bad = `\ufeff{ "judge": "J", "labels": [], "repeat": 2 }`;
    const labels = parseJudgeFile(bad).problems.find((p) => p.path.join('.') === 'labels');
    assert.equal(bad.slice(labels?.range.offset, (labels?.range.offset ?? 0) + (labels?.range.length ?? 0)), '[]');
  });

  it('names every problem at its place, with the fix', () => {
    const text = JSON.stringify(
      {
        judge: '',
        labels: [
          label('a'),
          { ...label('a'), expected: 'maybe' },
          { name: 'b', rubric: 'r', transcript: '', expected: 'fail', extra: 1 },
          3,
        ],
        repeat: 4,
        minKappa: 1.5,
        colour: 'red',
      },
      null,
      2,
    );
    const { file, problems } = parseJudgeFile(text);
    assert.equal(file, undefined);
    const messages = problems.map((p) => `${p.path.join('.')}: ${p.message}`);
    const expected = [
      /^colour: "colour" is no field of a judge file; use target, judge, labels, repeat, minKappa$/,
      /^judge: name the judge prompt/,
      /^repeat: repeat is how many times each label is judged: an odd whole number from 1 to 15/,
      /^minKappa: minKappa is the lowest Cohen's kappa the judge may have: a number from 0 to 1/,
      /^labels\.1\.name: another label is named "a"; names must be unique$/,
      /^labels\.1\.expected: expected is the verdict people gave the call: "pass" or "fail"$/,
      /^labels\.2\.extra: "extra" is no field of a label/,
      /^labels\.2\.transcript: every label needs a "transcript"/,
      /^labels\.3: a label is an object/,
    ];
    assert.equal(messages.length, expected.length, messages.join('\n'));
    expected.forEach((pattern, index) => assert.match(messages[index] ?? '', pattern));
    const extra = problems.find((p) => p.path.join('.') === 'labels.2.extra');
    assert.equal(
      text.slice(extra?.range.offset, (extra?.range.offset ?? 0) + (extra?.range.length ?? 0)),
      '"extra"',
      'an unknown field is marked on its key',
    );
  });

  it('takes names as Unicode compares them (NFC), and refuses what is not a judge file', () => {
    const composed = parseJudgeFile(JSON.stringify({ judge: 'J', labels: [label('caf\u00e9'), label('cafe\u0301')] }));
    assert.match(
      composed.problems[0]?.message ?? '',
      /another label is named "café", the same name in other code points \(Unicode NFC\)/,
    );
    assert.match(parseJudgeFile('{ "judge": ').problems[0]?.message ?? '', /^not valid JSON/);
    assert.match(
      parseJudgeFile('[]').problems[0]?.message ?? '',
      /a judge file is a JSON object with "judge" and "labels"/,
    );
    assert.match(
      parseJudgeFile('{"judge": "J"}').problems[0]?.message ?? '',
      /labels must be a list of at least one label/,
    );
    assert.match(parseJudgeFile('['.repeat(200)).problems[0]?.message ?? '', /nest more than \d+ levels/);
  });

  it('gives a chosen path the suffix once', () => {
    assert.equal(judgeFilePath('calls/judge'), 'calls/judge.judgetest.json');
    assert.equal(judgeFilePath('calls/judge.judgetest.json'), 'calls/judge.judgetest.json');
  });
});
