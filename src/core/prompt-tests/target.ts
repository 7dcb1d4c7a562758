/**
 * What a suite tests, found by name (or id) in the chosen tenant, so one suite
 * runs against staging and production; and how one run of a case is sent.
 */
import type { ServiceClient } from '../client';
import type { RunOutcome } from '../history';
import type { Json, JsonObject } from '../json';
import { answeredOutcome, operationOf, sendOperation, type OperationTarget } from '../operation';
import { kindOfSegment } from '../resources';
import { INPUT_FIELDS, type ServiceOperation } from '../run-inputs';
import { closest } from '../closest-name';
import type { CaseRun, ExecuteContext, Executor } from './types';
import { refersTo, type Suite, type SuiteProblem, type SuiteTarget, type TestCase } from './suite';
import { isJudged } from './simulated-case';
import type { TextRange } from '../json-document';
import type { TrialRoute } from '../trials/trial-run';

/** Why a suite cannot run in a tenant; `problems` are the places in the suite that name what the tenant lacks. */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly problems: readonly SuiteProblem[] = [],
  ) {
    super(message);
  }
}

/**
 * Where a suite runs, decided once for every shell: what the command names (the CLI's --tenant) wins over the
 * suite's own `target`, which wins over the shell's default (the setting convai.testTarget).
 */
export function whereSuiteRuns(
  suite: Pick<Suite, 'target'>,
  given: SuiteTarget = {},
  fallback: SuiteTarget = {},
): SuiteTarget {
  return {
    connection: given.connection ?? suite.target?.connection ?? fallback.connection,
    tenantId: given.tenantId ?? suite.target?.tenantId ?? fallback.tenantId,
  };
}

export interface ResolvedTarget extends OperationTarget {
  name: string;
  /** Every resource of the kind in the tenant, by id: the names a conversation's turns are reported with. */
  names: ReadonlyMap<number, string>;
}

/** A prompt a trial creates, by its copy's id: a suite may name it as if the tenant held it. */
export interface CreatedPrompt {
  id: number;
  name: string;
}

/**
 * The suite's prompt or integration in the tenant, never a trial copy (a suite names live prompts, and a trial routes
 * them to their copies), with the prompts a trial creates; `where` names the connection or URL in the message.
 */
async function resolveTarget(
  client: ServiceClient,
  suite: Suite,
  tenantId: number,
  where: string,
  signal: AbortSignal | undefined,
  created: readonly CreatedPrompt[],
): Promise<ResolvedTarget> {
  const kind = kindOfSegment(suite.resource.segment);
  const listed = await client.list(kind, tenantId, { signal });
  return targetIn(suite, suite.resource.segment === 'ai_prompts' ? [...listed, ...created] : listed, tenantId, where);
}

/** A resource as a listing gives it: only its id and name are read. */
interface ListedResource {
  readonly id?: Json;
  readonly name?: Json;
}

/** The suite's resource found among `items`, the tenant's resources of its kind; throws TargetError. */
function targetIn(suite: Suite, items: readonly ListedResource[], tenantId: number, where: string): ResolvedTarget {
  const { segment, ref } = suite.resource;
  const kind = kindOfSegment(segment);
  const named = typeof ref === 'string' ? items.filter((i) => i.name === ref) : [];
  if (named.length > 1) {
    // Names are not unique on the service: running whichever comes first could test the wrong prompt unnoticed.
    const ids = named.map((i) => i.id);
    const field = kind.id;
    throw new TargetError(
      `${kind.label} ${JSON.stringify(ref)} names ${named.length} ${field}s in tenant ${tenantId} on ${where} (ids ${ids.join(', ')}): give the id instead ("${field}": ${String(ids[0])}), or rename one.`,
    );
  }
  // A name wins over an id written as text, so a prompt named "12" is not mistaken for prompt 12.
  const found = named[0] ?? items.find((i) => typeof i.id === 'number' && refersTo(ref, { id: i.id }));
  if (!found || typeof found.id !== 'number') {
    const names = items
      .map((i) => JSON.stringify(i.name))
      .slice(0, 10)
      .join(', ');
    throw new TargetError(
      `${kind.label} ${typeof ref === 'number' ? ref : JSON.stringify(ref)} is not in tenant ${tenantId} on ${where}${names ? `; it holds ${names}${items.length > 10 ? ', …' : ''}` : ''}.`,
    );
  }
  const names = new Map(
    items.flatMap((i) => (typeof i.id === 'number' && typeof i.name === 'string' ? [[i.id, i.name] as const] : [])),
  );
  return { kind, id: found.id, name: typeof found.name === 'string' ? found.name : `#${found.id}`, tenantId, names };
}

/**
 * Whether a suite that runs at `where` tests a pulled folder's tenant (and connection, where the shell has one). What
 * `where` leaves unnamed is taken to be the folder's, so such a suite is run, and says itself what it lacks.
 */
export function runsInFolder(where: SuiteTarget, folder: SuiteTarget): boolean {
  return (
    (where.tenantId ?? folder.tenantId) === folder.tenantId &&
    (where.connection ?? folder.connection) === folder.connection
  );
}

/** Every prompt a case names besides the suite's own, with what names it and where (a trial checks them too). */
export function promptsNamed(testCase: TestCase): Array<{ ref: string | number; what: string; range: TextRange }> {
  const turns = (testCase.turns ?? []).flatMap((turn, index) =>
    turn.prompt === undefined
      ? []
      : [{ ref: turn.prompt, what: `turn ${index + 1}: expect.prompt`, range: turn.range }],
  );
  const { simulate } = testCase;
  if (!simulate) return turns;
  const call = [
    { ref: simulate.caller, what: 'simulate.caller', range: testCase.range },
    ...(simulate.stopWhen?.prompt !== undefined
      ? [{ ref: simulate.stopWhen.prompt, what: 'simulate.stopWhen.prompt', range: testCase.range }]
      : []),
  ];
  const criteria = (testCase.criteria ?? []).flatMap((c) => {
    const ref = isJudged(c) ? c.judge : c.expect.prompt;
    return ref === undefined
      ? []
      : [
          {
            ref,
            what: `criterion ${JSON.stringify(c.name)}: ${isJudged(c) ? 'judge' : 'expect.prompt'}`,
            range: c.range,
          },
        ];
  });
  return [...turns, ...call, ...criteria];
}

/**
 * The places where a case names a prompt the tenant does not hold (a turn's answering prompt, a simulated call's
 * caller, judge or stopping prompt): a typo there would run and fail like a regression, so it is a problem before
 * anything is sent.
 */
function unknownPrompts(suite: Suite, target: ResolvedTarget): SuiteProblem[] {
  if (suite.resource.segment !== 'ai_prompts') return [];
  const prompts = [...target.names].map(([id, name]) => ({ id, name }));
  return suite.cases.flatMap((testCase) =>
    promptsNamed(testCase).flatMap(({ ref, what, range }) => {
      if (prompts.some((p) => refersTo(ref, p))) return [];
      const guess =
        typeof ref === 'string'
          ? closest(
              ref,
              prompts.map((p) => p.name),
            )
          : undefined;
      const fix =
        guess !== undefined ? `did you mean ${JSON.stringify(guess)}?` : 'give the name or id of one of its prompts';
      return [
        {
          path: [],
          message: `case ${JSON.stringify(testCase.name)}, ${what} ${JSON.stringify(ref)} names no prompt of tenant ${target.tenantId}; ${fix}`,
          range,
        },
      ];
    }),
  );
}

/**
 * What a suite names that `items` (the tenant's resources of the suite's kind) do not hold: its resource, else each
 * prompt a case names. The editor shows them as the suite is written; a run refuses them (prepareSuite).
 */
export function namingProblems(
  suite: Suite,
  items: readonly ListedResource[],
  tenantId: number,
  where: string,
): SuiteProblem[] {
  let target: ResolvedTarget;
  try {
    target = targetIn(suite, items, tenantId, where);
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    const key = suite.resource.segment === 'ai_prompts' ? 'prompt' : 'integration';
    return [{ path: [key], message: error.message, range: suite.resource.range ?? { offset: 0, length: 0 } }];
  }
  return unknownPrompts(suite, target);
}

/**
 * The suite's resource found in the tenant, and every name the suite gives checked against it; throws TargetError.
 * `created`: the prompts a trial creates, which the suite may name.
 */
export async function prepareSuite(
  client: ServiceClient,
  suite: Suite,
  tenantId: number,
  where: string,
  signal?: AbortSignal,
  created: readonly CreatedPrompt[] = [],
): Promise<ResolvedTarget> {
  const target = await resolveTarget(client, suite, tenantId, where, signal, created);
  const problems = unknownPrompts(suite, target);
  if (problems.length > 0) throw new TargetError(problems.map((p) => p.message).join('; '), problems);
  return target;
}

/** A case's inputs as the body of the operation it runs: what is sent and what the run history records. */
export function caseInputs(operation: ServiceOperation, testCase: TestCase): JsonObject {
  const { text, object } = INPUT_FIELDS[operation];
  const params = testCase[object];
  return { [text]: testCase[text] ?? '', ...(params ? { [object]: params } : {}) };
}

/**
 * One request of a case: the target's operation with the case's inputs, or a conversation's turn sent to the prompt
 * it was routed to. In a trial, a request to a copied prompt goes to its copy, and an answer handing over to a copy
 * is read as handing over to its live prompt, so that every rule and report above speaks of live prompts.
 */
export function executorFor(
  client: ServiceClient,
  target: OperationTarget | ResolvedTarget,
  trial?: TrialRoute,
): Executor {
  const operation = operationOf(target.kind);
  // Only prompts are copied: an integration whose id a copied prompt's shares is the integration.
  const route = target.kind.segment === 'ai_prompts' ? trial : undefined;
  const at = (id: number): OperationTarget => ({ ...target, id: route ? route.copyOf(id) : id });
  const read = (output: JsonObject): JsonObject =>
    route && typeof output.next_prompt_id === 'number'
      ? { ...output, next_prompt_id: route.liveOf(output.next_prompt_id) }
      : output;
  const send = async (testCase: TestCase, { signal, turn, onWait }: ExecuteContext): Promise<JsonObject> =>
    read(
      turn
        ? await sendOperation(client, at(turn.promptId), turn.inputs, { signal, onWait })
        : await sendOperation(client, at(target.id), caseInputs(operation, testCase), { signal, onWait }),
    );
  return 'names' in target ? { send, prompts: { first: target.id, names: target.names } } : { send };
}

/** A case's run (or a conversation's turn) as the run history records it: the assertions decide whether a case passed, not whether it ran. */
export function caseRunOutcome(operation: ServiceOperation, run: Pick<CaseRun, 'output' | 'error'>): RunOutcome {
  return run.output ? answeredOutcome(operation, run.output) : { kind: 'error', message: run.error ?? 'no answer' };
}
