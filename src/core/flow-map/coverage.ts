/**
 * What the suites have tested of a tenant's flow map (extension-contract.md,
 * "Flow map", `coverage`), from the results of runs as the CLI and the
 * Testing view hold them: each prompt passed, failed or untested, and the
 * hand-overs between prompts that conversations and simulated calls took.
 *
 * A case counts when it is a result: it passed, or one of its answered runs
 * failed (or it regressed). A case whose runs only errored, or that was
 * cancelled before a run failed, says nothing about the prompt, as its errors
 * say nothing in its pass rate; it counts neither for nor against.
 */
import type { ResourceKind } from '../resource-kind';
import type { CaseResult, CaseRun, TurnResult } from '../prompt-tests/types';
import type { FlowNode } from './model';

export type CoverageState = 'passed' | 'failed' | 'untested';

/**
 * A hand-over a run took, as the contract writes it: `<from> -> <to>`, the
 * prompt that answered a turn and the one that answered the next.
 */
export type CoverageEdge = `${string} -> ${string}`;

/** The edge's text for a hand-over, and back: what the panel matches against the map's edges. */
export function coverageEdge(from: string, to: string): CoverageEdge {
  return `${from} -> ${to}`;
}

export interface Coverage {
  /** Every prompt of the tenant, and every other resource a suite tested (an integration), by node id. */
  nodes: Record<string, CoverageState>;
  edges: CoverageEdge[];
}

export interface TenantCoverage extends Coverage {
  tenantId: number;
}

/** A case's result, as much of it as coverage reads. */
export type RecordedCase = Pick<CaseResult, 'passed' | 'passes' | 'runs' | 'regressed'> & {
  details: ReadonlyArray<Pick<CaseRun, 'error'> & { turns?: ReadonlyArray<Pick<TurnResult, 'promptId'>> }>;
};

/** A suite's run: the CLI's SuiteOutcome and the Testing view's SuiteRun both are one. */
export interface RecordedSuite {
  target: { kind: Pick<ResourceKind, 'segment'>; id: number; tenantId: number };
  result: { cases: readonly RecordedCase[] };
}

const PROMPTS = 'ai_prompts';

function promptNode(id: number): string {
  return `${PROMPTS}/${id}`;
}

/** What a case says of the resources it reached: undefined when it is no result (errored or cancelled runs only). */
function stateOf(testCase: RecordedCase): 'passed' | 'failed' | undefined {
  if (testCase.passed) return 'passed';
  return testCase.passes < testCase.runs || testCase.regressed !== undefined ? 'failed' : undefined;
}

/**
 * The coverage of one tenant's map by its suites' runs (runs against other tenants must be left out by the caller).
 * `nodes` are the map's nodes, or the tenant's prompt listing as nodes: every prompt among them no counted case
 * reached is untested. A case reaches its suite's resource and every prompt that answered a turn of its answered
 * runs; a failing case makes each of them failed, whatever other cases passed there.
 */
export function coverageOf(
  suites: readonly RecordedSuite[],
  nodes: Iterable<Pick<FlowNode, 'id' | 'segment'>>,
): Coverage {
  const states = new Map<string, CoverageState>();
  for (const node of nodes) if (node.segment === PROMPTS) states.set(node.id, 'untested');
  const edges = new Set<CoverageEdge>();
  for (const { target, result } of suites) {
    for (const testCase of result.cases) {
      const state = stateOf(testCase);
      if (state === undefined) continue;
      const reached = [`${target.kind.segment}/${target.id}`];
      for (const run of testCase.details) {
        if (run.error !== undefined) continue;
        const turns = run.turns ?? [];
        turns.forEach((turn, index) => {
          reached.push(promptNode(turn.promptId));
          const before = turns[index - 1];
          // A null next_prompt_id keeps the next turn on the same prompt: no hand-over.
          if (before && before.promptId !== turn.promptId) {
            edges.add(coverageEdge(promptNode(before.promptId), promptNode(turn.promptId)));
          }
        });
      }
      for (const node of reached) if (states.get(node) !== 'failed') states.set(node, state);
    }
  }
  return { nodes: Object.fromEntries(states), edges: [...edges] };
}

/**
 * One coverage per tenant the suites ran against, in the order of tenant ids; `nodesOf` gives a tenant's prompts
 * (its map's nodes, or its prompt listing as nodes).
 */
export function coverageByTenant(
  suites: readonly RecordedSuite[],
  nodesOf: (tenantId: number) => Iterable<Pick<FlowNode, 'id' | 'segment'>>,
): TenantCoverage[] {
  const tenants = [...new Set(suites.map((s) => s.target.tenantId))].sort((a, b) => a - b);
  return tenants.map((tenantId) => ({
    tenantId,
    ...coverageOf(
      suites.filter((s) => s.target.tenantId === tenantId),
      nodesOf(tenantId),
    ),
  }));
}

/** A tenant's prompt listing (ids, as the service lists them) as the nodes coverage reads. */
export function promptNodes(ids: Iterable<number>): Array<Pick<FlowNode, 'id' | 'segment'>> {
  return [...ids].map((id) => ({ id: promptNode(id), segment: PROMPTS }));
}
