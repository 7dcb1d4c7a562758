import * as assert from 'node:assert/strict';
import { runsInFolder, whereSuiteRuns } from '../../src/core/prompt-tests/target';

describe('prompt tests: where a suite runs, one rule for both shells', () => {
  const suite = { target: { connection: 'staging', tenantId: 2 } };

  it("takes what the command names over the suite's target, and the target over the shell's default", () => {
    assert.deepEqual(whereSuiteRuns(suite, { tenantId: 7 }, { connection: 'local', tenantId: 1 }), {
      connection: 'staging',
      tenantId: 7,
    });
    assert.deepEqual(whereSuiteRuns(suite, {}, { connection: 'local', tenantId: 1 }), {
      connection: 'staging',
      tenantId: 2,
    });
    assert.deepEqual(whereSuiteRuns({}, {}, { connection: 'local', tenantId: 1 }), {
      connection: 'local',
      tenantId: 1,
    });
    assert.deepEqual(
      whereSuiteRuns({ target: { tenantId: 0 } }, {}, { tenantId: 1 }),
      { connection: undefined, tenantId: 0 },
      'tenant 0 is a tenant',
    );
  });

  it("counts a suite as the folder's when it names the folder's tenant and connection, or leaves them out", () => {
    const folder = { connection: 'local', tenantId: 1 };
    assert.equal(runsInFolder({ connection: 'local', tenantId: 1 }, folder), true);
    assert.equal(runsInFolder({}, folder), true, 'a suite naming nothing runs, and says so itself');
    assert.equal(runsInFolder({ tenantId: 2 }, folder), false);
    assert.equal(runsInFolder({ connection: 'staging', tenantId: 1 }, folder), false);
  });
});
