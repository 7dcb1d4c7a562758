import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LIMITS, withinLimit, type Limit } from '../../src/core/limits';
import { repoRoot } from '../harness/paths';

interface SettingSchema {
  type?: string | string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

function settings(): Record<string, SettingSchema> {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: {
      configuration:
        | { properties: Record<string, SettingSchema> }
        | Array<{ properties: Record<string, SettingSchema> }>;
    };
  };
  const { configuration } = manifest.contributes;
  return Object.assign(
    {},
    ...(Array.isArray(configuration) ? configuration : [configuration]).map((c) => c.properties),
  ) as Record<string, SettingSchema>;
}

const rows = Object.entries(LIMITS) as Array<[string, Limit]>;

describe('the limits table', () => {
  it('says why each limit has its value, in the comment on its row', () => {
    const source = readFileSync(path.join(repoRoot, 'src', 'core', 'limits.ts'), 'utf8');
    for (const [name, limit] of rows) {
      assert.match(source, new RegExp(`\\*/\\n  ${name}: \\{`), `${name}: a /** why */ comment right above its row`);
      assert.ok(Number.isFinite(limit.value) && limit.value >= 0, `${name}: a number`);
    }
  });

  it("gives each setting it names the row's value as default and the row's bounds", () => {
    const declared = settings();
    for (const [name, { value, setting }] of rows) {
      if (!setting) continue;
      const schema = declared[setting.name];
      assert.ok(schema, `${name}: package.json declares no setting ${setting.name}`);
      assert.equal(schema.default, value, `${setting.name}: default`);
      assert.equal(schema.minimum, setting.minimum, `${setting.name}: minimum`);
      assert.equal(schema.maximum, setting.maximum, `${setting.name}: maximum`);
      assert.equal(schema.type, setting.integer ? 'integer' : 'number', `${setting.name}: type`);
      assert.ok(
        value >= setting.minimum && value <= (setting.maximum ?? Number.POSITIVE_INFINITY),
        `${name}: its value within its bounds`,
      );
    }
  });

  it('has a row for every numeric setting of package.json', () => {
    const named = new Set(rows.flatMap(([, { setting }]) => (setting ? [setting.name] : [])));
    for (const [name, schema] of Object.entries(settings())) {
      const types = [schema.type ?? []].flat();
      if (types.includes('number') || types.includes('integer'))
        assert.ok(named.has(name), `${name} is a number setting without a row in src/core/limits.ts`);
    }
  });

  it("reads a setting within its row's bounds, and its default when the value is unusable", () => {
    const { requestTimeout, testConcurrency, confirmRequestsAbove } = LIMITS;
    assert.equal(withinLimit(requestTimeout, 2.5), 2.5);
    assert.equal(withinLimit(requestTimeout, 0), 1);
    assert.equal(withinLimit(requestTimeout, 6000), 600);
    assert.equal(withinLimit(requestTimeout, '60'), 30);
    assert.equal(withinLimit(testConcurrency, 99), 16);
    assert.equal(withinLimit(testConcurrency, 2.5), 4, 'whole numbers only');
    assert.equal(withinLimit(testConcurrency, Number.NaN), 4);
    assert.equal(withinLimit(confirmRequestsAbove, 1e9), 1e9, 'no upper bound');
    assert.equal(withinLimit(confirmRequestsAbove, -1), 0);
    assert.equal(withinLimit(confirmRequestsAbove, undefined), 500);
  });
});
