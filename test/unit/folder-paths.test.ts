import * as assert from 'node:assert/strict';
import { foldedName, isDeviceName, unsafePath } from '../../src/core/tenant/folder-paths';

describe('tenant folders: which paths a folder may hold', () => {
  it('allows the paths a pull writes', () => {
    for (const file of [
      'tenant.json',
      'convai-tenant.json',
      'ai_prompts/order-triage.json',
      'ai_prompts/order-triage.system.md',
      'intents/a.b.json',
      'README.md',
      '.gitignore',
      'ai_prompts/café 2.json',
      'ai_prompts/console.json',
      'ai_prompts/com10.json',
      'ai_prompts/lpt.json',
    ]) {
      assert.equal(unsafePath(file), undefined, file);
    }
  });

  it('refuses an empty path', () => {
    assert.equal(unsafePath(''), 'is empty');
  });

  it('refuses absolute paths: a leading slash or backslash, a drive letter, a UNC share', () => {
    for (const file of ['/etc/passwd', '\\Windows\\win.ini', 'C:/x.json', 'c:x.json', '\\\\server\\share\\x.json']) {
      assert.equal(unsafePath(file), 'is an absolute path', file);
    }
  });

  it('refuses a backslash anywhere, since Windows takes it for a separator', () => {
    assert.match(unsafePath('ai_prompts\\x.json') ?? '', /backslash/);
  });

  it('refuses . and .. and empty segments', () => {
    assert.equal(unsafePath('ai_prompts/../../x.json'), 'leads outside the folder (..)');
    assert.equal(unsafePath('..'), 'leads outside the folder (..)');
    assert.equal(unsafePath('./tenant.json'), 'has a "." segment');
    assert.equal(unsafePath('ai_prompts//x.json'), 'has an empty segment (//)');
    assert.equal(unsafePath('ai_prompts/'), 'has an empty segment (//)');
  });

  it('refuses NUL and other control characters', () => {
    for (const file of ['a\u0000.json', 'ai_prompts/x\n.json', 'x\u001f.json', 'x\u007f.json']) {
      assert.equal(unsafePath(file), 'holds a control character', JSON.stringify(file));
    }
  });

  it('refuses the characters Windows does not allow in a name', () => {
    for (const char of ['<', '>', ':', '"', '|', '?', '*']) {
      assert.equal(
        unsafePath(`ai_prompts/a${char}b.json`),
        `holds ${char}, which Windows does not allow in a name`,
        char,
      );
    }
  });

  it('refuses a segment ending in a dot or a space, which Windows strips', () => {
    for (const file of ['ai_prompts/x.json.', 'ai_prompts/x.json ', 'ai_prompts./x.json', 'intents /x.json']) {
      assert.match(unsafePath(file) ?? '', /ending in a dot or a space/, file);
    }
  });

  it('refuses Windows device names as any segment, in any case, with or without extension', () => {
    assert.equal(unsafePath('ai_prompts/con.json'), 'is a Windows device name (CON)');
    assert.equal(unsafePath('ai_prompts/Nul.system.md'), 'is a Windows device name (NUL)');
    assert.equal(unsafePath('aux/x.json'), 'is a Windows device name (AUX)');
    for (const file of [
      'PRN',
      'com0.json',
      'COM9.json',
      'lpt1.txt',
      'LPT9',
      'COM¹.json',
      'lpt³',
      'CONIN$.json',
      'conout$',
      'con .json',
    ]) {
      assert.match(unsafePath(file) ?? '', /Windows device name/, file);
    }
  });

  it('tells a device name from a name that only starts like one', () => {
    assert.equal(isDeviceName('con'), true);
    assert.equal(isDeviceName('Com7'), true);
    assert.equal(isDeviceName('prn.json'), true, 'the extension does not help');
    for (const stem of ['', 'cons', 'contact', 'com', 'com10', 'lpt', 'nul-1', 'conin', 'aux_'])
      assert.equal(isDeviceName(stem), false, stem);
  });

  it('folds names that are one file on a case-insensitive file system to one key', () => {
    assert.equal(foldedName('Alpha.JSON'), foldedName('alpha.json'));
    assert.equal(foldedName('Cafe\u0301.json'), foldedName('caf\u00e9.json'), 'NFD and NFC');
    assert.notEqual(foldedName('alpha.json'), foldedName('alpha2.json'));
  });
});
