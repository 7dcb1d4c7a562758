import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ServiceClient } from '../../src/core/client';
import { ServiceError } from '../../src/core/errors';
import { formatDocument } from '../../src/core/json-document';
import {
  answeredOutcome,
  failedOutcome,
  operationOf,
  runOperation,
  savedVersionHash,
  type OperationTarget,
} from '../../src/core/operation';
import { caseInputs, caseRunOutcome, executorFor } from '../../src/core/prompt-tests/target';
import type { TestCase } from '../../src/core/prompt-tests/suite';
import { kindById } from '../../src/core/resources';
import { startService, type RunningService } from '../service/server';

const TENANT = 1;
const prompts = kindById('prompt');
const integrations = kindById('integration');

function testCase(fields: Partial<TestCase>): TestCase {
  return { name: 'case', expect: {}, repeat: 1, minPassRate: 1, range: { offset: 0, length: 0 }, ...fields };
}

describe('operation: one way to run test_prompt and execute_action', () => {
  let service: RunningService;
  let client: ServiceClient;
  let prompt: OperationTarget;
  let integration: OperationTarget;

  before(async () => {
    service = await startService({ adminToken: 'operation-admin-token' });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
    const [firstPrompt] = await client.list(prompts, TENANT);
    const [firstIntegration] = await client.list(integrations, TENANT);
    assert.ok(
      typeof firstPrompt?.id === 'number' && typeof firstIntegration?.id === 'number',
      'the sample tenant has a prompt and an integration',
    );
    prompt = { kind: prompts, id: firstPrompt.id, tenantId: TENANT };
    integration = { kind: integrations, id: firstIntegration.id, tenantId: TENANT };
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  it('names the operation of a prompt and of an integration, and refuses the other kinds', () => {
    assert.equal(operationOf(prompts), 'test_prompt');
    assert.equal(operationOf(integrations), 'execute_action');
    assert.throws(() => operationOf(kindById('agent')), /has no operation of the service/);
  });

  it('names the saved version by 8 hex characters of its formatted document, the same each time until it changes', async () => {
    const first = await savedVersionHash(client, prompt);
    assert.match(first, /^[0-9a-f]{8}$/);
    assert.equal(await savedVersionHash(client, prompt), first);
    const saved = await client.get(prompts, prompt.id, TENANT);
    assert.equal(first, createHash('sha256').update(formatDocument(saved)).digest('hex').slice(0, 8));
    const created = await client.create(prompts, { name: 'Hashed', system: 'Before' }, TENANT);
    const target = { kind: prompts, id: created.id as number, tenantId: TENANT };
    const before = await savedVersionHash(client, target);
    await client.update(prompts, target.id, { system: 'After' }, TENANT);
    assert.notEqual(await savedVersionHash(client, target), before);
  });

  it('fails an answered action whose status is not success, and never a prompt for its status', () => {
    assert.deepEqual(answeredOutcome('execute_action', { result: 'pong', status: 'success' }), {
      kind: 'ok',
      response: { result: 'pong', status: 'success' },
    });
    assert.deepEqual(answeredOutcome('execute_action', { result: 'down', status: 'error' }), {
      kind: 'failed-status',
      response: { result: 'down', status: 'error' },
    });
    assert.deepEqual(answeredOutcome('execute_action', { result: 'no status' }), {
      kind: 'failed-status',
      response: { result: 'no status' },
    });
    assert.deepEqual(answeredOutcome('test_prompt', { response: 'hi', status: 'error' }), {
      kind: 'ok',
      response: { response: 'hi', status: 'error' },
    });
  });

  it('tells a cancelled request from a failed one, keeping the HTTP status', () => {
    const info = { method: 'GET', path: '/api/v1/ai_prompts/1' };
    assert.deepEqual(failedOutcome(new ServiceError({ ...info, kind: 'cancelled' }, 'cancelled')), {
      kind: 'cancelled',
    });
    assert.deepEqual(failedOutcome(new ServiceError({ ...info, kind: 'http', status: 404 }, 'not found')), {
      kind: 'error',
      message: 'not found',
      status: 404,
    });
    const unreadable = new ServiceError(
      { ...info, kind: 'response', status: 200 },
      'answered 200 with a body that is not valid JSON',
    );
    assert.deepEqual(
      failedOutcome(unreadable),
      { kind: 'error', message: unreadable.message, status: undefined },
      'a 200 that is not JSON is no HTTP error',
    );
    assert.deepEqual(failedOutcome(new Error('broken')), { kind: 'error', message: 'broken', status: undefined });
  });

  it('runs a prompt end to end: its answer, and the saved version that ran', async () => {
    const result = await runOperation(client, prompt, { prompt_text: 'Where is my order?' });
    assert.equal(result.outcome.kind, 'ok');
    assert.equal(result.savedHash, await savedVersionHash(client, prompt));
    assert.deepEqual(
      result.response,
      await client.testPrompt(prompts, prompt.id, TENANT, { prompt_text: 'Where is my order?' }),
    );
    assert.equal(result.error, undefined);
  });

  it('runs an action end to end: a failing status is a failed run that still answered', async () => {
    const ok = await runOperation(client, integration, { action: 'echo', params: { order: 7 } });
    assert.deepEqual(ok.outcome, { kind: 'ok', response: { result: '{"order":7}', status: 'success' } });
    const failed = await runOperation(client, integration, { action: 'fail', params: { reason: 'CRM is down' } });
    assert.deepEqual(failed.outcome, { kind: 'failed-status', response: { result: 'CRM is down', status: 'error' } });
    assert.match(failed.savedHash ?? '', /^[0-9a-f]{8}$/);
  });

  it('ends a refused run as an error with the status, and a cancelled one as cancelled, with what to reject with', async () => {
    const refused = await runOperation(client, integration, { action: 'no_such_action' });
    assert.equal(refused.outcome.kind, 'error');
    assert.equal(refused.outcome.kind === 'error' && refused.outcome.status, 422);
    assert.ok(refused.error instanceof ServiceError);
    assert.match(refused.savedHash ?? '', /^[0-9a-f]{8}$/, 'the saved version was read before the action was refused');
    const controller = new AbortController();
    controller.abort();
    const cancelled = await runOperation(client, prompt, { prompt_text: 'hi' }, controller.signal);
    assert.deepEqual(cancelled.outcome, { kind: 'cancelled' });
    assert.ok(cancelled.error instanceof ServiceError);
  });

  it('maps a case to the body of its operation: the text (empty if missing) and the object if given, nothing of the other operation', () => {
    assert.deepEqual(
      caseInputs('test_prompt', testCase({ prompt_text: 'hi', prompt_params: { who: 'Ada' }, action: 'ping' })),
      { prompt_text: 'hi', prompt_params: { who: 'Ada' } },
    );
    assert.deepEqual(caseInputs('test_prompt', testCase({})), { prompt_text: '' });
    assert.deepEqual(caseInputs('execute_action', testCase({ action: 'echo', params: { n: 1 }, prompt_text: 'x' })), {
      action: 'echo',
      params: { n: 1 },
    });
    assert.deepEqual(caseInputs('execute_action', testCase({ action: 'ping' })), { action: 'ping' });
  });

  it('sends a case through the same operation, and records a run without an answer as an error', async () => {
    const output = await executorFor(client, integration).send(testCase({ action: 'echo', params: { n: 1 } }), {
      signal: new AbortController().signal,
    });
    assert.deepEqual(output, { result: '{"n":1}', status: 'success' });
    assert.deepEqual(caseRunOutcome('execute_action', { output }), { kind: 'ok', response: output });
    assert.deepEqual(caseRunOutcome('test_prompt', { error: '503 Service Unavailable' }), {
      kind: 'error',
      message: '503 Service Unavailable',
    });
  });
});
