import { request } from 'undici';
import type { JsonObject } from '../../src/core/json';
import type { KindId } from '../../src/core/resource-kind';

export { serviceRejection as rejection } from '../support/service-errors';

/**
 * Response shapes transcribed from service-api.md (sections 2 and 4.1), kept
 * apart from src/core/resource-table.ts so a wrong table or a wrong service fails.
 */
export const SPEC: Readonly<
  Record<KindId, { summary: string[]; detail: string[]; create: string[]; update: string[] }>
> = {
  integration: {
    summary: ['id', 'name', 'system', 'technical_id', 'mode'],
    detail: ['id', 'name', 'system', 'technical_id', 'mode', 'url', 'tec_params', 'tenant_id'],
    create: ['id', 'name', 'system', 'technical_id', 'mode', 'url', 'tec_params', 'tenant_id'],
    update: ['id', 'name', 'system', 'technical_id', 'mode', 'url', 'tec_params', 'tenant_id'],
  },
  prompt: {
    summary: ['name', 'id', 'description', 'prompt_type', 'group', 'mode'],
    detail: [
      'id',
      'name',
      'description',
      'prompt_type',
      'group',
      'mode',
      'user_prompt',
      'system',
      'assistant',
      'user_name',
      'temparature',
      'max_tokens',
      'ai_model',
      'settings',
      'function_defs',
      'next_prompt_id',
      'exit_prompt_id',
      'prompt_mode',
      'voice',
      'initial_announcement',
      'initial_response',
      'tenant_id',
    ],
    create: ['id', 'name', 'status'],
    update: [
      'id',
      'name',
      'description',
      'prompt_type',
      'group',
      'mode',
      'user_prompt',
      'system',
      'assistant',
      'user_name',
      'temparature',
      'max_tokens',
      'ai_model',
      'settings',
      'function_defs',
      'next_prompt_id',
      'exit_prompt_id',
      'prompt_mode',
      'voice',
      'initial_announcement',
      'initial_response',
      'tenant_id',
    ],
  },
  function: {
    summary: ['id', 'name', 'description', 'parameters'],
    detail: ['id', 'name', 'description', 'parameters', 'tenant_id'],
    create: ['id', 'name', 'description', 'parameters', 'tenant_id'],
    update: ['id', 'name', 'description', 'parameters', 'tenant_id'],
  },
  action: {
    summary: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
    ],
    detail: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
      'say_before',
      'result_prompt',
      'tenant_id',
    ],
    create: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
      'tenant_id',
    ],
    update: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
      'tenant_id',
    ],
  },
  agent: {
    summary: ['id', 'name', 'number', 'description'],
    detail: ['id', 'name', 'number', 'description', 'configuration', 'tenant_id'],
    create: ['id', 'name', 'number', 'description', 'tenant_id'],
    update: ['id', 'name', 'number', 'description', 'configuration', 'tenant_id'],
  },
  intent: {
    summary: ['id', 'name', 'display_name', 'intent_type', 'parent_id', 'ai_prompt_id', 'forward_number', 'speak'],
    detail: [
      'id',
      'name',
      'display_name',
      'intent_type',
      'parent_id',
      'ai_prompt_id',
      'forward_number',
      'speak',
      'ai_actions',
      'tenant_id',
    ],
    create: [
      'id',
      'name',
      'display_name',
      'intent_type',
      'parent_id',
      'ai_prompt_id',
      'forward_number',
      'speak',
      'tenant_id',
    ],
    update: [
      'id',
      'name',
      'display_name',
      'intent_type',
      'parent_id',
      'ai_prompt_id',
      'forward_number',
      'speak',
      'tenant_id',
    ],
  },
  datasource: {
    summary: ['id', 'name', 'type', 'url', 'status'],
    detail: ['id', 'name', 'type', 'url', 'content', 'status', 'metadata', 'tenant_id'],
    create: ['id', 'name', 'type', 'url', 'status', 'metadata', 'tenant_id'],
    update: ['id', 'name', 'type', 'url', 'status', 'metadata', 'tenant_id'],
  },
  tenant: {
    summary: ['id', 'name', 'booked_package'],
    detail: ['id', 'name', 'auth_token', 'booked_package'],
    create: ['id', 'name', 'auth_token', 'booked_package'],
    update: ['id', 'name', 'auth_token'],
  },
};

/** A valid create body per kind, and a change to make on update. */
export const SAMPLES: Readonly<Record<KindId, { create: JsonObject; update: JsonObject }>> = {
  integration: {
    create: {
      name: 'CRM',
      system: 'hubspot',
      technical_id: 'crm-1',
      mode: 'activated',
      url: 'https://crm.example.com',
      tec_params: { region: 'eu' },
    },
    update: {
      name: 'CRM (EU)',
      system: 'hubspot',
      technical_id: 'crm-1',
      mode: 'activated',
      url: 'https://crm.example.com',
      tec_params: { region: 'eu' },
    },
  },
  prompt: {
    create: {
      name: 'Refund policy',
      description: 'Answers refund questions',
      user_prompt: 'Explain refunds to {{customer}}',
      ai_model: 'gpt-4o',
      temparature: 0.3,
      max_tokens: 300,
    },
    update: { description: 'Answers refund and return questions' },
  },
  function: {
    create: {
      name: 'lookup_order',
      description: 'Find an order',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string', description: 'Order number' } },
        required: ['order_id'],
      },
    },
    update: {
      name: 'lookup_order',
      description: 'Find an order by its number',
      parameters: { type: 'object', properties: {} },
    },
  },
  action: {
    create: {
      name: 'Forward to billing',
      action_type: 2,
      forward_number: '+4930123456',
      voice: 'alloy',
      speak: 'Connecting you to billing.',
    },
    update: {
      name: 'Forward to billing',
      action_type: 2,
      forward_number: '+4930999999',
      voice: 'sage',
      speak: 'One moment.',
    },
  },
  agent: {
    create: {
      name: 'Night shift',
      description: 'After-hours agent',
      configuration: {
        prompt: [{ name: 'main', prompt: 'You answer after hours.', initial_response: 'Hello!', voice: 'coral' }],
      },
    },
    update: {
      name: 'Night shift',
      description: 'After-hours and weekend agent',
      configuration: {
        prompt: [{ name: 'main', prompt: 'You answer after hours.', initial_response: 'Hi!', voice: 'coral' }],
      },
    },
  },
  intent: {
    create: { name: 'cancel_order', display_name: 'Cancel order', intent_type: 1, speak: 'Let me cancel that.' },
    update: { name: 'cancel_order', display_name: 'Cancel an order', intent_type: 1, speak: 'Let me cancel that.' },
  },
  datasource: {
    create: {
      name: 'FAQ page',
      type: 'webpage',
      url: 'https://example.com/faq',
      metadata: { description: 'Public FAQ' },
    },
    update: {
      name: 'FAQ page',
      type: 'webpage',
      url: 'https://example.com/help/faq',
      metadata: { description: 'Public FAQ' },
    },
  },
  tenant: {
    create: { name: 'Contract Test GmbH', email: 'admin@contract.example', package: 'voice' },
    update: { name: 'Contract Test AG' },
  },
};

/** A raw request, for what the client by design never sends (malformed JSON, no wrapper key). */
export async function raw(
  url: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  token: string,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  const response = await request(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.statusCode, json };
}
