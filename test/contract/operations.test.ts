import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { kindById } from '../../src/core/resources';
import { rejection } from './fixtures';
import { startContract, type ContractContext } from './setup';

const TENANT = 1;
const prompts = kindById('prompt');
const integrations = kindById('integration');

describe('contract: test_prompt and execute_action (sections 4.2, 4.3)', () => {
  let ctx: ContractContext;
  before(async () => {
    ctx = await startContract();
  });
  after(async () => ctx.close());

  it('tests a prompt: placeholders filled, next prompt named, deterministic', async () => {
    const next = (await ctx.admin.create(prompts, { name: 'Next step' }, TENANT)).id as number;
    const { id } = await ctx.admin.create(
      prompts,
      { name: 'Greeter', user_prompt: 'Greet {{customer}} from {{city}} warmly.', ai_model: 'gpt-4o', mode: 1 },
      TENANT,
    );
    await ctx.admin.update(prompts, id as number, { next_prompt_id: next }, TENANT);
    const body = { prompt_text: 'Hello there', prompt_params: { customer: 'Ada', city: 'Oslo' } };
    const result = await ctx.admin.testPrompt(prompts, id as number, TENANT, body);
    assert.deepEqual(Object.keys(result).sort(), [
      'altered_prompt',
      'next_prompt_id',
      'next_prompt_params',
      'response',
    ]);
    assert.equal(result.altered_prompt, 'Greet Ada from Oslo warmly.');
    assert.equal(result.next_prompt_id, next);
    assert.equal(typeof result.response, 'string');
    assert.ok(result.response.includes('Hello there'));
    assert.deepEqual(await ctx.admin.testPrompt(prompts, id as number, TENANT, body), result);
  });

  it('tests a sample prompt of a chain', async () => {
    const list = await ctx.admin.list(prompts, TENANT);
    const details = await Promise.all(list.map((p) => ctx.admin.get(prompts, p.id as number, TENANT)));
    const chained = details.find((p) => typeof p.next_prompt_id === 'number' && p.mode !== 2);
    assert.ok(chained, 'the sample data holds a prompt chain');
    const result = await ctx.admin.testPrompt(prompts, chained.id as number, TENANT, { prompt_text: 'hi' });
    assert.equal(result.next_prompt_id, chained.next_prompt_id);
  });

  it('executes an action with a success status', async () => {
    const [first] = await ctx.admin.list(integrations, TENANT);
    assert.ok(first);
    assert.deepEqual(await ctx.admin.executeAction(integrations, first.id as number, TENANT, { action: 'ping' }), {
      result: 'pong',
      status: 'success',
    });
  });

  it('answers a failing action with a failure status, not an HTTP error', async () => {
    const [first] = await ctx.admin.list(integrations, TENANT);
    assert.ok(first);
    const result = await ctx.admin.executeAction(integrations, first.id as number, TENANT, { action: 'fail' });
    assert.notEqual(result.status, 'success');
  });

  it('executes call_api as a real outgoing request built by the rules of section 2.9', async () => {
    const received: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];
    const target = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"booked":true}');
      });
    });
    target.listen(0, '127.0.0.1');
    await once(target, 'listening');
    const { port } = target.address() as AddressInfo;
    try {
      const request = {
        name: 'Book table',
        url: `http://127.0.0.1:${port}/restaurants/{{restaurant}}/bookings`,
        method: 'POST',
        api_key: 'call-api-key',
        headers: { Authorization: 'Bearer {{api_key}}' },
        function_definition: {
          type: 'function',
          name: 'book_table',
          description: 'Books a table',
          parameters: { type: 'object', properties: { restaurant: { type: 'string' }, people: { type: 'integer' } } },
        },
        fixed_parameters: { source: 'voice-bot' },
      };
      const created = await ctx.admin.create(
        integrations,
        { name: 'Bookings', system: 'rest', technical_id: 'bookings', tec_params: { request } },
        TENANT,
      );
      const result = await ctx.admin.executeAction(integrations, created.id as number, TENANT, {
        action: 'call_api',
        params: { restaurant: 'Chez Ada', people: 4 },
      });
      assert.equal(result.status, 'success');
      assert.ok(result.result.includes('booked'));
      assert.equal(received.length, 1);
      assert.equal(received[0]?.method, 'POST');
      assert.equal(received[0]?.url, '/restaurants/Chez%20Ada/bookings');
      assert.equal(received[0]?.auth, 'Bearer call-api-key');
      assert.deepEqual(JSON.parse(received[0]?.body ?? ''), { people: 4, source: 'voice-bot' });
    } finally {
      target.closeAllConnections();
      target.close();
    }
  });

  it('refuses an unknown action with 422 naming the field', async () => {
    const [first] = await ctx.admin.list(integrations, TENANT);
    assert.ok(first);
    const error = await rejection(
      ctx.admin.executeAction(integrations, first.id as number, TENANT, { action: 'no_such_action' }),
    );
    assert.equal(error.status, 422);
    assert.match(error.message, /action/);
  });

  it('answers 404 for operations on an unknown id', async () => {
    assert.equal((await rejection(ctx.admin.testPrompt(prompts, 999_999, TENANT, { prompt_text: 'x' }))).status, 404);
    assert.equal(
      (await rejection(ctx.admin.executeAction(integrations, 999_999, TENANT, { action: 'ping' }))).status,
      404,
    );
  });
});
