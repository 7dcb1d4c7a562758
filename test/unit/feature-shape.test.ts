import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// One seam of one shape (docs/architecture.md): a feature's register(context, services) and extension.ts a list of its calls.
const src = path.join(__dirname, '..', '..', '..', 'src');
const features = fs
  .readdirSync(src, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(src, entry.name, 'register.ts')))
  .map((entry) => entry.name);

describe('the features of src/ and their one seam', () => {
  it('finds the features', () => {
    assert.ok(features.length >= 10, `only ${features.join(', ')}`);
  });

  for (const feature of features) {
    it(`${feature}/register.ts exports only register(context, services)`, () => {
      const text = fs.readFileSync(path.join(src, feature, 'register.ts'), 'utf8');
      const exported = [...text.matchAll(/^export (?:async )?(?:function|const|class|interface|type) (\w+)/gm)].map(
        (m) => m[1] ?? '',
      );
      assert.deepEqual(
        exported.filter((name) => name !== 'register' && !/^[A-Z]/.test(name)),
        [],
        'a register.ts exports its register and the types it returns',
      );
      assert.match(
        text,
        /export function register\(\s*context: vscode\.ExtensionContext,\s*\{[^}]*\}: \{[^}]*\},?\s*\)/,
      );
    });
  }

  it('extension.ts composes every feature, each with one alike call', () => {
    const text = fs.readFileSync(path.join(src, 'extension.ts'), 'utf8');
    for (const feature of features) {
      const imported = new RegExp(`import \\* as (\\w+) from '\\./${feature}/register';`).exec(text);
      assert.ok(imported, `extension.ts does not import ${feature}/register`);
      const calls = text.match(new RegExp(`\\b${imported[1]}\\.register\\(context, \\w+\\)`, 'g')) ?? [];
      assert.equal(calls.length, 1, `${feature} is registered ${calls.length} times`);
      assert.doesNotMatch(
        text,
        new RegExp(`from '\\./${feature}/(?!register')`),
        `extension.ts reaches past ${feature}/register.ts`,
      );
    }
  });
});
