/**
 * What each test file of a `test` run names, found in the service before anything is sent: all or nothing, so a
 * partial run cannot pass a pipeline while a file it should have checked never ran.
 */
import { ServiceError } from '../core/errors';
import type { Suite } from '../core/prompt-tests/suite';
import { TargetError, whereSuiteRuns } from '../core/prompt-tests/target';
import { lineColumnText } from '../core/text';

/** A test file as read: its displayed name, its text (where later problems are placed) and its target. */
export interface ReadTestFile {
  name: string;
  text: string;
  suite: Pick<Suite, 'target'>;
}

/**
 * Every file prepared in the tenant that applies (--tenant, else the file's target), or every reason one cannot run.
 * `noun` and `key` name the file and its field in messages. A failed request stops the search, as it would most
 * likely fail the same way for every other file.
 */
export async function resolveEach<F extends ReadTestFile, R>(
  files: readonly F[],
  tenant: number | undefined,
  what: { noun: string; key: (file: F) => string },
  prepare: (file: F, tenantId: number) => Promise<R>,
): Promise<{ ready: R[]; problems: string[] }> {
  const ready: R[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const { tenantId } = whereSuiteRuns(file.suite, { tenantId: tenant });
    if (tenantId === undefined) {
      problems.push(
        `${file.name}: the ${what.noun} names no tenant: pass --tenant <id>, or give the ${what.noun} "target": { "tenantId": <id> }.`,
      );
      continue;
    }
    try {
      ready.push(await prepare(file, tenantId));
    } catch (error) {
      if (error instanceof TargetError && error.problems.length > 0) {
        problems.push(
          ...error.problems.map((p) => `${file.name}:${lineColumnText(file.text, p.range.offset)} ${p.message}.`),
        );
        continue;
      }
      if (error instanceof TargetError) {
        problems.push(
          `${file.name}: ${error.message.replace(/\.$/, '')}; correct the ${what.noun}'s "${what.key(file)}" or its tenant.`,
        );
        continue;
      }
      if (!(error instanceof ServiceError)) throw error;
      problems.push(`${file.name}: ${error.message}`);
      break;
    }
  }
  return { ready, problems };
}
