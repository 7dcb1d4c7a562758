/**
 * The GitHub Actions workflows the docs give (docs/ci/convai.yml and the yaml
 * blocks of docs/cli.md) are valid YAML of a workflow's shape, and call the
 * command-line tool only with commands and flags its command table has: a
 * renamed flag fails here, not in a user's pipeline.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { COMMANDS } from '../../src/cli/commands';
import { PLAN_FORMATS } from '../../src/cli/plan';
import { isJsonObject, type Json, type JsonObject } from '../../src/core/json';
import { PLAN_MARKER } from '../../src/core/tenant/plan-markdown';
import { repoRoot } from '../harness/paths';

const WORKFLOW = 'docs/ci/convai.yml';
const STEP_KEYS = new Set([
  'name',
  'id',
  'if',
  'uses',
  'run',
  'with',
  'env',
  'shell',
  'continue-on-error',
  'timeout-minutes',
  'working-directory',
]);

interface Invocation {
  command: string;
  /** Each flag given, with its value (true for a boolean flag). */
  flags: Map<string, string | true>;
  positionals: string[];
  text: string;
}

function stringsOf(value: Json): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  return isJsonObject(value) ? Object.values(value).flatMap(stringsOf) : [];
}

/** Everything wrong with a workflow's shape, each naming where. */
function shapeProblems(workflow: unknown, where: string): string[] {
  if (!isJsonObject(workflow)) return [`${where}: not a mapping`];
  const problems: string[] = [];
  if (typeof workflow.name !== 'string') problems.push(`${where}: no name`);
  const on = workflow.on;
  if (!(typeof on === 'string' || Array.isArray(on) || isJsonObject(on))) problems.push(`${where}: no "on"`);
  const jobs = workflow.jobs;
  if (!isJsonObject(jobs) || Object.keys(jobs).length === 0) return [...problems, `${where}: no jobs`];
  for (const [name, job] of Object.entries(jobs)) {
    if (!isJsonObject(job)) {
      problems.push(`${where}: job ${name} is not a mapping`);
      continue;
    }
    if (typeof job['runs-on'] !== 'string') problems.push(`${where}: job ${name} has no runs-on`);
    if (!Array.isArray(job.steps) || job.steps.length === 0) {
      problems.push(`${where}: job ${name} has no steps`);
      continue;
    }
    job.steps.forEach((step, index) => {
      const at = `${where}: jobs.${name}.steps[${index}]`;
      if (!isJsonObject(step)) return problems.push(`${at} is not a mapping`);
      const unknown = Object.keys(step).filter((key) => !STEP_KEYS.has(key));
      if (unknown.length > 0) problems.push(`${at} has unknown keys ${unknown.join(', ')}`);
      if ((typeof step.run === 'string') === (typeof step.uses === 'string'))
        problems.push(`${at} needs one of run and uses`);
      if (typeof step.uses === 'string' && !/^[\w.-]+\/[\w./-]+@[\w.-]+$/.test(step.uses))
        problems.push(`${at}: uses "${step.uses}" is not owner/repo@ref`);
      return undefined;
    });
  }
  const unclosed = stringsOf(workflow).filter((text) =>
    text
      .split('${{')
      .slice(1)
      .some((rest) => !rest.includes('}}')),
  );
  problems.push(...unclosed.map((text) => `${where}: an expression \${{ … }} is not closed in "${text}"`));
  return problems;
}

function runScripts(workflow: JsonObject): string[] {
  return Object.values(workflow.jobs as JsonObject).flatMap((job) =>
    ((job as JsonObject).steps as Json[]).flatMap((step) =>
      isJsonObject(step) && typeof step.run === 'string' ? [step.run] : [],
    ),
  );
}

/** Each `convai <command> …` or `node dist/cli.js <command> …` of a shell script, up to a shell operator, parsed against the command table. */
function invocations(script: string, problems: string[]): Invocation[] {
  const found: Invocation[] = [];
  for (const line of script.replace(/\\\n\s*/g, ' ').split('\n')) {
    for (const match of line.matchAll(/(?<![\w./-])(?:convai|node dist\/cli\.js)(?=\s)([^;&|<>()\n]*)/g)) {
      const text = match[0].trim();
      const [name, ...words] = (match[1] ?? '').trim().split(/\s+/);
      const command = COMMANDS.find((c) => c.name === name)?.load();
      if (!command) {
        problems.push(`"${text}": no command ${name ?? ''}`);
        continue;
      }
      const flags = new Map<string, string | true>();
      const positionals: string[] = [];
      for (let i = 0; i < words.length; i += 1) {
        const word = words[i] as string;
        if (!word.startsWith('-')) {
          positionals.push(word);
          continue;
        }
        const [flag = '', inline] = word.replace(/^--?/, '').split(/=(.*)/s);
        const entry = Object.entries(command.options).find(([long, option]) =>
          word.startsWith('--') ? long === flag : option.short === flag,
        );
        if (!entry) {
          problems.push(`"${text}": ${command.name} has no option ${word.split('=')[0] ?? word}`);
          continue;
        }
        const [long, option] = entry;
        if (option.type === 'boolean') flags.set(long, true);
        else if (inline !== undefined) flags.set(long, inline);
        else {
          i += 1;
          flags.set(long, words[i] ?? '');
        }
      }
      found.push({ command: command.name, flags, positionals, text });
    }
  }
  return found;
}

/** The yaml blocks of a Markdown page, with the line each starts on. */
function yamlBlocks(file: string): Array<{ where: string; text: string }> {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  return [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((match) => ({
    where: `${file}:${text.slice(0, match.index).split('\n').length}`,
    text: match[1] ?? '',
  }));
}

describe('the CI workflows in the docs', () => {
  const source = readFileSync(path.join(repoRoot, WORKFLOW), 'utf8');
  const workflow = parse(source) as JsonObject;

  it(`${WORKFLOW} is a workflow: on a pull request and a push to main, jobs of steps`, () => {
    assert.deepEqual(shapeProblems(workflow, WORKFLOW), []);
    const on = workflow.on as JsonObject;
    assert.ok('pull_request' in on, 'runs on a pull request');
    assert.deepEqual((on.push as JsonObject).branches, ['main']);
  });

  it(`${WORKFLOW} calls only commands and flags the CLI has (after the merge: plan --format, --out, --drift; push --plan)`, () => {
    const problems: string[] = [];
    const calls = runScripts(workflow).flatMap((script) => invocations(script, problems));
    assert.deepEqual(problems, []);
    const plan = calls.find((c) => c.command === 'plan' && c.flags.get('format') === 'markdown');
    assert.ok(plan, `plans as Markdown: ${calls.map((c) => c.text).join(' / ')}`);
    for (const call of calls.filter((c) => c.flags.has('format')))
      assert.ok((PLAN_FORMATS as readonly unknown[]).includes(call.flags.get('format')), call.text);
    const saved = plan.flags.get('out');
    assert.ok(typeof saved === 'string' && saved !== '', 'saves the reviewed plan');
    const push = calls.find((c) => c.command === 'push');
    const reviewed = push?.flags.get('plan');
    assert.ok(typeof reviewed === 'string', `pushes a saved plan: ${push?.text ?? 'no push'}`);
    assert.equal(
      path.posix.basename(reviewed),
      path.posix.basename(saved as string),
      'pushes the file the review saved',
    );
    const test = calls.find((c) => c.command === 'test');
    assert.equal(test?.flags.get('affected-by'), plan.positionals[0], 'runs the suites the planned folder affects');
    assert.deepEqual(push?.positionals, plan.positionals, 'pushes the folder it planned');
  });

  it(`${WORKFLOW} updates the one comment that carries the marker planMarkdown writes`, () => {
    const steps = Object.values(workflow.jobs as JsonObject).flatMap(
      (job) => (job as JsonObject).steps as JsonObject[],
    );
    const script = steps
      .map((step) => (isJsonObject(step.with) ? step.with.script : undefined))
      .find((s): s is string => typeof s === 'string');
    assert.ok(script !== undefined && script.includes(`'${PLAN_MARKER}'`), 'finds its comment by the marker');
    assert.match(script, /updateComment/);
    assert.match(script, /createComment/);
  });

  it('the yaml blocks of docs/cli.md are workflows calling only commands and flags the CLI has', () => {
    const blocks = yamlBlocks('docs/cli.md');
    assert.ok(blocks.length > 0, 'docs/cli.md shows a workflow');
    const problems = blocks.flatMap(({ where, text }) => {
      const parsed = parse(text) as unknown;
      const shape = shapeProblems(parsed, where);
      if (shape.length > 0) return shape;
      const found: string[] = [];
      for (const script of runScripts(parsed as JsonObject)) invocations(script, found);
      return found.map((problem) => `${where}: ${problem}`);
    });
    assert.deepEqual(problems, []);
  });

  it('finds what a wrong call gets wrong', () => {
    const problems: string[] = [];
    invocations(
      'convai plan --fromat markdown tenant && node dist/cli.js pusj tenant\nnpm install -g ./tools/convai-cli-1.tgz',
      problems,
    );
    assert.deepEqual(problems, [
      '"convai plan --fromat markdown tenant": plan has no option --fromat',
      '"node dist/cli.js pusj tenant": no command pusj',
    ]);
    assert.deepEqual(
      shapeProblems(
        {
          name: 'x',
          on: 'push',
          jobs: { a: { 'runs-on': 'ubuntu-latest', steps: [{ run: 'x', uses: 'a/b@v1' }, { runs: 'x' }] } },
        },
        'w',
      ),
      [
        'w: jobs.a.steps[0] needs one of run and uses',
        'w: jobs.a.steps[1] has unknown keys runs',
        'w: jobs.a.steps[1] needs one of run and uses',
      ],
    );
  });
});
