import * as assert from 'node:assert/strict';
import { indentedLines, inertLine, inertLines, plain, plainText } from '../../src/core/plain-text';

describe('text shown as text', () => {
  it('writes terminal controls, line breaks and bidirectional controls as escapes', () => {
    assert.equal(
      inertLine('a\u001b[31mred\u0007\r\nb\u202Ec\u2066d\u0085'),
      'a\\u001B[31mred\\u0007\\r\\nb\\u202Ec\\u2066d\\u0085',
    );
    assert.equal(inertLine('Refunds · 返金 🎉'), 'Refunds · 返金 🎉');
  });

  it('keeps the lines and tabs of a text of several lines', () => {
    assert.equal(inertLines('one\n\ttwo\u001b]8;;x\u0007\rthree'), 'one\n\ttwo\\u001B]8;;x\\u0007\\rthree');
  });

  it('indents every line after the first, at each character a reader breaks a line at', () => {
    assert.equal(
      indentedLines('one\ntwo\r\nthree\rfour\u2028five\u2029six\u0085seven\u000beight\u000cnine\u001cten', '  '),
      'one\n  two\n  three\n  four\n  five\n  six\n  seven\n  eight\n  nine\n  ten',
    );
    assert.equal(indentedLines('one\n\n', '    '), 'one\n    \n    ');
    assert.equal(indentedLines('one line', '  '), 'one line');
  });

  it('breaks Markdown links and codicons for VS Code', () => {
    assert.equal(
      plainText('Refunds [see the fix](command:workbench.action.terminal.sendSequence?%7B%7D)'),
      'Refunds [see the fix]\\(command:workbench.action.terminal.sendSequence?%7B%7D)',
    );
    assert.equal(plainText('$(alert) $(zap) Approved'), '\\$(alert) \\$(zap) Approved');
    assert.equal(plainText('already \\$(x)'), 'already \\$(x)');
  });

  it('changes nothing of a text it has made plain, so a label built of plain parts may pass through it again', () => {
    const once = plainText('[x](command:evil) $(zap) \u202E\u001b[31m');
    assert.equal(plainText(once), once);
  });

  it('escapes only the interpolated values of a template', () => {
    const name = '[x](command:evil) $(zap)\u202E';
    assert.equal(plain`$(cloud-upload) Saved ${name}`, '$(cloud-upload) Saved [x]\\(command:evil) \\$(zap)\\u202E');
  });
});
