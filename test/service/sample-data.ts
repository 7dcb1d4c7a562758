/**
 * Deterministic sample data: two tenants with several resources of every
 * kind. Loaded in a fixed order so every id is the same on every start.
 */

import type { JsonObject } from '../../src/core/json';
import { LARGE_TENANT, seedLargeTenant } from './large-tenant';
import { Seeder } from './seeder';
import type { Row, Store } from './store';

const SAMPLE_TENANT_TOKENS = {
  acme: 'acme-tenant-token',
  voicebox: 'voicebox-tenant-token',
  duplicates: 'duplicate-names-tenant-token',
} as const;

/** Extra tenants holding nothing but many plain prompts: the volume of a large real tenant (`npm run bench`). */
export interface BulkTenants {
  count: number;
  promptsEach: number;
}

/** The tenant names of `BulkTenants`, in id order after the sample tenants. */
export function bulkTenantName(index: number): string {
  return `Bulk Tenant ${index + 1}`;
}

/** The tenant of the `duplicateNames` option. */
export const DUPLICATE_NAMES_TENANT = 'Duplicate Names';

/** The tenant of the `mapTenant` option. */
export const MAP_TENANT = 'Map Tenant';

/**
 * The `mapTenant` option's resources, 1,000 in all, linked as an assistant's are (README "Map tenant"). Prompts come in
 * flows of ten, each handing over to the next; every third exits to its flow's last prompt.
 */
export const MAP_TENANT_SHAPE = {
  integrations: 40,
  functions: 50,
  actions: 150,
  flows: 50,
  flowLength: 10,
  intents: 200,
  agents: 50,
  datasources: 10,
} as const;

/** Tenants added after the two sample tenants; part of the sample data, so kept across `/__test/reset`. */
export interface ExtraTenants {
  /** Tenants of many generated prompts. */
  bulkTenants?: BulkTenants;
  /**
   * One tenant, `DUPLICATE_NAMES_TENANT`, in which two prompts share a name
   * and so do two actions, as nothing on a real service forbids.
   */
  duplicateNames?: boolean;
  /** One tenant, `MAP_TENANT`, of 1,000 resources of every kind referring to each other: the flow map's bench. */
  mapTenant?: boolean;
  /** Tenant 3, `LARGE_TENANT`, of 50,000 prompts, 10,000 intents and 1,000 of each other kind (`--large`). */
  largeTenant?: boolean;
}

export function loadSampleData(store: Store, extras: ExtraTenants = {}): void {
  const acme = store.addTenant('Acme Support', 'admin@acme.example', 1, SAMPLE_TENANT_TOKENS.acme);
  const voicebox = store.addTenant('Voicebox Telecom', 'ops@voicebox.example', 2, SAMPLE_TENANT_TOKENS.voicebox);
  seedAcme(new Seeder(store, acme.id));
  seedVoicebox(new Seeder(store, voicebox.id));
  // After the second tenant, so the ids of its prompts stay what they were before these were added.
  seedAcmeCalls(new Seeder(store, acme.id));
  // Right after the sample tenants: the contract names it tenant 3.
  if (extras.largeTenant) seedLargeTenant(new Seeder(store, store.addTenant(LARGE_TENANT, 'admin@bulk.example', 2).id));
  // Before the bulk tenants, so its ids do not depend on how many of those there are.
  if (extras.duplicateNames) {
    const tenant = store.addTenant(
      DUPLICATE_NAMES_TENANT,
      'admin@duplicates.example',
      2,
      SAMPLE_TENANT_TOKENS.duplicates,
    );
    seedDuplicates(new Seeder(store, tenant.id));
  }
  if (extras.mapTenant) seedMapTenant(new Seeder(store, store.addTenant(MAP_TENANT, 'admin@map.example', 1).id));
  const bulk = extras.bulkTenants;
  for (let index = 0; index < (bulk?.count ?? 0); index++) {
    const tenant = store.addTenant(bulkTenantName(index), `bulk${index + 1}@bulk.example`, 1);
    seedBulk(new Seeder(store, tenant.id), bulk?.promptsEach ?? 0);
  }
}

function functionDef(name: string, description: string, properties: JsonObject, required: string[]): JsonObject {
  return { type: 'function', name, description, parameters: { type: 'object', properties, required } };
}

const param = (type: string, description: string): JsonObject => ({ type, description });

function seedBulk(s: Seeder, prompts: number): void {
  for (let n = 1; n <= prompts; n++) {
    s.prompt({
      name: `Bulk Prompt ${n}`,
      description: `Generated prompt ${n} of ${prompts}`,
      group: `group-${n % 20}`,
      user_prompt: `Answer {{customer_name}} about topic ${n}.`,
      system: 'Be brief and friendly.',
      ai_model: 'gpt-4o-mini',
    });
  }
}

/** `MAP_TENANT_SHAPE`'s tenant; the n-th resource of a kind refers to others by n alone, so every start seeds the same. */
function seedMapTenant(s: Seeder): void {
  const shape = MAP_TENANT_SHAPE;
  const nth = <T>(rows: readonly T[], n: number): T => rows[n % rows.length] as T;
  const times = <T>(count: number, make: (n: number) => T): T[] => Array.from({ length: count }, (_, n) => make(n));
  const integrations = times(shape.integrations, (n) =>
    s.add('integration', {
      name: `Map Integration ${n + 1}`,
      system: 'http_api',
      technical_id: `map-integration-${n + 1}`,
      mode: 'activated',
      url: `https://api${n + 1}.map.example`,
    }),
  );
  const functions = times(shape.functions, (n) =>
    s.add('function', {
      name: `map_function_${n + 1}`,
      description: `Looks up record kind ${n + 1}`,
      parameters: { type: 'object', properties: { record_id: param('string', 'The record') }, required: ['record_id'] },
    }),
  );
  // Two actions of three call an integration.
  const actions = times(shape.actions, (n) =>
    s.add('action', {
      name: `Map Action ${n + 1}`,
      action_type: n % 3 === 2 ? 1 : 3,
      voice: 'alloy',
      speak: `Action ${n + 1}.`,
      ...(n % 3 === 2 ? {} : { integration_id: nth(integrations, n).id }),
    }),
  );
  const flows = times(shape.flows, (f) => {
    const prompts = times(shape.flowLength, (n) =>
      s.prompt({
        name: `Flow ${f + 1} Step ${n + 1}`,
        description: `Step ${n + 1} of flow ${f + 1}`,
        group: `flow-${f + 1}`,
        user_prompt: `Help {{customer_name}} with step ${n + 1}.`,
        system: 'Be brief.',
        ai_model: 'gpt-4o-mini',
        // A fifth of the prompts call an AI function by name.
        ...(n % 5 === 1
          ? {
              function_defs: JSON.stringify([
                functionDef(nth(functions, f + n).values.name as string, 'Looks up a record', {}, []),
              ]),
            }
          : {}),
      }),
    );
    const last = prompts[prompts.length - 1] as Row;
    prompts.forEach((prompt, n) => {
      prompt.values.next_prompt_id = prompts[n + 1]?.id ?? null;
      prompt.values.exit_prompt_id = n % 3 === 0 && prompt !== last ? last.id : null;
    });
    return prompts;
  });
  // One intent opens each flow; the others, its children, lead into the flow's middle. Each links an action.
  const heads = times(shape.flows, (f) =>
    s.add('intent', {
      name: `map_flow_${f + 1}`,
      display_name: `Flow ${f + 1}`,
      intent_type: 2,
      ai_prompt_id: (nth(flows, f)[0] as Row).id,
    }),
  );
  heads.forEach((head, f) => (head.actionIds = [nth(actions, f).id]));
  times(shape.intents - shape.flows, (n) => {
    const f = n % shape.flows;
    const intent = s.add('intent', {
      name: `map_intent_${n + 1}`,
      display_name: `Intent ${n + 1}`,
      intent_type: 1,
      parent_id: nth(heads, f).id,
      ai_prompt_id: nth(nth(flows, f), 3 + (n % 5)).id,
    });
    intent.actionIds = [nth(actions, shape.flows + n).id];
  });
  times(shape.agents, (n) => {
    const agent = s.add('agent', { name: `Map Agent ${n + 1}`, description: `Agent ${n + 1}` });
    agent.agentPrompts = [
      s.agentPrompt(`Agent ${n + 1} Prompt`, 'Answer the caller.', 'Hello!', 'alloy', {
        function_ids: [nth(functions, n).id, nth(functions, n + 1).id],
        integration: {
          id: nth(integrations, n).id,
          name: nth(integrations, n).values.name as string,
          server: `https://api${(n % shape.integrations) + 1}.map.example/mcp`,
        },
      }),
    ];
  });
  times(shape.datasources, (n) =>
    s.add('datasource', { name: `Map Source ${n + 1}`, type: 'text', content: `Facts ${n + 1}.` }),
  );
}

/** Duplicates where a pull or a suite must choose: prompts and actions, one of which the other resources refer to. */
function seedDuplicates(s: Seeder): void {
  s.add('integration', {
    name: 'Duplicates CRM',
    system: 'http_api',
    technical_id: 'duplicates-crm',
    mode: 'activated',
    url: 'https://crm.duplicates.example',
    tec_params: { api_key: 'duplicates-sample-key' },
  });
  const greeting = s.prompt({
    name: 'Greeting',
    description: 'Greets callers in English',
    group: 'calls',
    user_prompt: 'Greet {{caller_name}} in English and ask how we can help.',
    system: 'Be warm and brief.',
    ai_model: 'gpt-4o-mini',
  });
  s.prompt({
    name: 'Greeting',
    description: 'Greets callers in German',
    group: 'calls',
    user_prompt: 'Begrüße {{caller_name}} auf Deutsch und frage, wie wir helfen können.',
    system: 'Sei freundlich und kurz.',
    ai_model: 'gpt-4o-mini',
    settings: '{"language":"de"}',
  });
  s.add('function', {
    name: 'find_caller',
    description: 'Find the caller in the CRM',
    parameters: {
      type: 'object',
      properties: { phone_number: param('string', 'The number calling') },
      required: ['phone_number'],
    },
  });
  const transfer = s.add('action', {
    name: 'Transfer',
    action_type: 2,
    voice: 'alloy',
    speak: 'Transferring you to sales.',
    forward_number: '+15553330100',
  });
  s.add('action', {
    name: 'Transfer',
    action_type: 2,
    voice: 'alloy',
    speak: 'Transferring you to support.',
    forward_number: '+15553330200',
  });
  const agent = s.add('agent', {
    name: 'Duplicates Receptionist',
    description: 'Answers the line of the duplicates tenant',
  });
  agent.agentPrompts = [
    s.agentPrompt('Welcome', 'Greet the caller and offer a transfer.', 'Hello!', 'alloy', {
      actions: { on_transfer: transfer.id },
    }),
  ];
  const intent = s.add('intent', {
    name: 'talk_to_sales',
    display_name: 'Talk to sales',
    intent_type: 1,
    ai_prompt_id: greeting.id,
  });
  intent.actionIds = [transfer.id];
  s.add('datasource', {
    name: 'Duplicates FAQ',
    type: 'text',
    content: 'Two prompts and two actions of this tenant share a name.',
    metadata: { description: 'What this tenant is for' },
  });
}

function seedAcme(s: Seeder): void {
  s.add('integration', {
    name: 'OpenAI GPT-4o',
    system: 'openai',
    technical_id: 'acme-openai-gpt4o',
    mode: 'activated',
    url: 'https://api.openai.com/v1',
    tec_params: { api_key: 'sk-acme-sample-not-a-real-key', model: 'gpt-4o' },
  });
  s.add('integration', {
    name: 'Twilio Messaging',
    system: 'twilio',
    technical_id: 'acme-twilio-sms',
    mode: 'activated',
    url: 'https://api.twilio.com/2010-04-01',
    tec_params: {
      account_sid: 'AC00000000000000000000000000000001',
      auth_token: 'sample-twilio-auth-token',
      messaging_service_sid: 'MG00000000000000000000000000000001',
    },
  });
  s.add('integration', {
    name: 'Deepgram Nova-2',
    system: 'deepgram',
    technical_id: 'acme-deepgram-nova2',
    mode: 'deactivated',
    url: 'https://api.deepgram.com/v1/listen',
    tec_params: { api_key: 'dg-acme-sample-key', model: 'nova-2', language: 'en-US' },
  });
  const orderParams = { order_id: param('string', 'The order number, e.g. A-10023') };
  const getOrderStatus = functionDef('get_order_status', 'Look up the shipping status of an order', orderParams, [
    'order_id',
  ]);
  const orderApi = s.add('integration', {
    name: 'Order Status API',
    system: 'http_api',
    technical_id: 'acme-order-status',
    mode: 'activated',
    url: 'https://orders.acme.example',
    tec_params: {
      request: {
        name: 'Order status lookup',
        url: 'https://orders.acme.example/api/orders/{{order_id}}',
        method: 'GET',
        api_key: 'acme-orders-sample-key',
        headers: { Authorization: 'Bearer {{api_key}}', Accept: 'application/json' },
        function_definition: getOrderStatus,
        fixed_parameters: {},
        say_before: 'One moment while I look up your order.',
      },
    },
  });

  const greeting = s.prompt({
    name: 'Support Greeting',
    description: 'Opens every chat and collects the order number',
    group: 'support',
    user_prompt: 'Greet {{customer_name}} and ask how we can help with order {{order_id}}.',
    system: "You are Acme's friendly support assistant. Keep answers short and polite.",
    assistant: 'Hi {{customer_name}}! How can I help you today?',
    user_name: 'customer',
    ai_model: 'gpt-4o',
    settings: '{"language":"en","tone":"friendly"}',
    initial_response: 'Hello! This is Acme Support.',
  });
  const triage = s.prompt({
    name: 'Order Triage',
    description: 'Classifies the customer request',
    group: 'support',
    user_prompt: 'Classify this message from {{customer_name}} about order {{order_id}}: {{message}}',
    system: 'Answer with one of: status, cancel, return, other.',
    ai_model: 'gpt-4o-mini',
    temparature: 0.2,
    function_defs: JSON.stringify([getOrderStatus]),
    initial_response: 'Let me check that for you.',
  });
  const resolution = s.prompt({
    name: 'Order Resolution',
    description: 'Answers the classified request',
    group: 'support',
    user_prompt: 'Resolve the {{category}} request for order {{order_id}}.',
    system: 'Offer concrete next steps.',
    ai_model: 'gpt-4o',
    initial_response: 'Here is what I found.',
  });
  const handoff = s.prompt({
    name: 'Human Handoff',
    description: 'Hands the conversation to a human agent',
    group: 'support',
    user_prompt: 'Tell {{customer_name}} that a colleague will take over.',
    system: 'Be reassuring.',
    ai_model: 'gpt-4o-mini',
    initial_response: 'I am connecting you with a colleague.',
  });
  s.chain([greeting, triage, resolution], handoff);
  // A refund question gets an answer that says how many days it takes, for the simulated call of seedAcmeCalls.
  triage.values.settings = JSON.stringify({
    language: 'en',
    routes: [
      {
        when: 'refund|money back',
        say: 'Refunds reach your original payment method within 5 business days.',
        next_prompt_id: handoff.id,
      },
    ],
  });
  const supportFlows = s.prompt({
    name: 'Support Flows',
    description: 'Groups the support conversation prompts',
    prompt_type: 2,
    group: 'support',
    user_prompt: '',
    system: 'Route the conversation to the matching support prompt.',
    ai_model: 'gpt-4o-mini',
  });
  s.prompt({
    name: 'Order Lookup API',
    description: 'Calls the order API and phrases the result',
    prompt_type: 3,
    group: 'api',
    user_prompt: 'Report the status of order {{order_id}} using the API result.',
    system: 'Use get_order_status.',
    ai_model: 'gpt-4o',
    function_defs: JSON.stringify([getOrderStatus]),
    settings: '{"language":"en","integration":"acme-order-status"}',
  });
  s.prompt({
    name: 'Ticket Sentiment Analysis',
    description: 'Scores the sentiment of a ticket',
    prompt_type: 4,
    mode: 3,
    group: 'analytics',
    user_prompt: 'Rate the sentiment of this ticket from -1 to 1: {{ticket_text}}',
    system: 'Answer with a number only.',
    ai_model: 'gpt-4o-mini',
    temparature: 0,
    max_tokens: 10,
  });
  s.prompt({
    name: 'Weekly Ticket Summary',
    description: 'Summarises the week of tickets',
    prompt_type: 5,
    mode: 2,
    group: 'analytics',
    user_prompt: 'Summarise the tickets from {{week_start}} to {{week_end}}.',
    system: 'Use bullet points.',
    ai_model: 'gpt-4o',
    max_tokens: 800,
  });

  const orderFn = s.add('function', {
    name: 'get_order_status',
    description: getOrderStatus.description ?? null,
    parameters: getOrderStatus.parameters ?? null,
  });
  s.add('function', {
    name: 'create_support_ticket',
    description: 'Open a ticket for the support team',
    parameters: {
      type: 'object',
      properties: {
        subject: param('string', 'Short summary of the problem'),
        priority: param('string', 'low, normal or high'),
        customer_email: param('string', 'Where the team replies'),
      },
      required: ['subject'],
    },
  });
  s.add('function', {
    name: 'search_help_center',
    description: 'Search the help center articles',
    parameters: { type: 'object', properties: { query: param('string', 'Search words') }, required: ['query'] },
  });

  const welcome = s.add('action', {
    name: 'Welcome Message',
    action_type: 1,
    initial_announcement: 'Welcome to Acme Support!',
    initial_response: 'How can I help?',
    voice: 'alloy',
    speak: 'Welcome to Acme Support. How can I help you today?',
  });
  const billing = s.add('action', {
    name: 'Forward to Billing',
    action_type: 2,
    initial_response: 'Transferring you to billing.',
    voice: 'alloy',
    speak: 'Please hold while I transfer you to our billing team.',
    forward_number: '+15551230100',
  });
  const checkOrder = s.add('action', {
    name: 'Check Order Status',
    action_type: 3,
    voice: 'alloy',
    speak: 'Checking your order now.',
    integration_id: orderApi.id,
    say_before: 'One moment while I check your order.',
    result_prompt: 'Summarise this order status for the customer: {{result}}',
  });
  const ticket = s.add('action', {
    name: 'Create Ticket',
    action_type: 4,
    initial_response: 'I will open a ticket for you.',
    voice: 'alloy',
    speak: 'Your ticket has been created.',
    say_before: 'Creating a ticket.',
    result_prompt: 'Give the customer the ticket number: {{result}}',
  });

  const chat = s.add('agent', { name: 'Acme Chat Assistant', description: 'Website chat for order questions' });
  chat.agentPrompts = [
    s.agentPrompt('Greeting', 'Greet the customer and ask for the order number.', 'Hi! How can I help?', 'alloy'),
    s.agentPrompt('Order Status', 'Look up the order and report its status.', 'Let me check your order.', 'alloy', {
      function_ids: [orderFn.id],
      tools: [{ type: 'function', name: 'get_order_status' }],
      actions: { on_result: checkOrder.id, on_escalate: billing.id },
      integration: {
        id: orderApi.id,
        name: 'Order Status API',
        server: 'https://orders.acme.example/mcp',
        bearer_token: 'sample-acme-mcp-token',
      },
    }),
  ];
  const sms = s.add('agent', { name: 'Acme SMS Assistant', description: 'Answers text messages' });
  sms.agentPrompts = [
    s.agentPrompt(
      'SMS Greeting',
      'Reply to the first text message in under 160 characters.',
      'Acme Support here!',
      'sage',
    ),
    s.agentPrompt(
      'SMS Handoff',
      'Tell the customer a human will reply soon.',
      'A colleague will text you shortly.',
      'sage',
    ),
  ];

  const orders = s.add('intent', {
    name: 'orders',
    display_name: 'Orders',
    intent_type: 2,
    ai_prompt_id: supportFlows.id,
  });
  const status = s.add('intent', {
    name: 'order_status',
    display_name: 'Order status',
    intent_type: 1,
    parent_id: orders.id,
    ai_prompt_id: triage.id,
    speak: 'Let me look up your order.',
  });
  status.actionIds = [checkOrder.id];
  const cancel = s.add('intent', {
    name: 'cancel_order',
    display_name: 'Cancel an order',
    intent_type: 1,
    parent_id: orders.id,
    ai_prompt_id: resolution.id,
  });
  cancel.actionIds = [ticket.id];
  const refund = s.add('intent', {
    name: 'cancel_order_refund',
    display_name: 'Refund for a cancelled order',
    intent_type: 1,
    parent_id: cancel.id,
    ai_prompt_id: resolution.id,
    forward_number: '+15551230100',
    speak: 'I will connect you with billing for the refund.',
  });
  refund.actionIds = [billing.id];
  const human = s.add('intent', {
    name: 'talk_to_human',
    display_name: 'Talk to a human',
    intent_type: 1,
    ai_prompt_id: handoff.id,
    forward_number: '+15551230199',
    speak: 'Connecting you to an agent.',
  });
  human.actionIds = [welcome.id, billing.id];

  s.add('datasource', {
    name: 'Help Center',
    type: 'webpage',
    url: 'https://help.acme.example/faq',
    metadata: { last_updated: '2025-01-15T09:30:00Z', size: '240 KB', description: 'Public FAQ pages' },
  });
  s.add('datasource', {
    name: 'Return Policy',
    type: 'text',
    content:
      'Items can be returned within 30 days of delivery. Refunds are issued to the original payment method within 5 business days.',
    metadata: { last_updated: '2025-02-01T12:00:00Z', size: '1 KB', description: 'Return and refund rules' },
  });
  s.add('datasource', {
    name: 'Product Catalog',
    type: 'file',
    url: 'https://files.acme.example/catalog-2025.pdf',
    metadata: { last_updated: '2025-01-02T08:00:00Z', size: '3.2 MB', description: 'Spring 2025 catalog' },
  });
  s.add('datasource', {
    name: 'Orders Database',
    type: 'database',
    metadata: { last_updated: '2025-03-10T06:00:00Z', size: '1.4 GB', description: 'Read replica of the order system' },
  });
}

/**
 * A caller and a judge for simulated calls (test/service/README.md): the
 * caller asks Order Triage for a refund until an answer names days, and the
 * judge passes a call whose assistant says how many days a refund takes.
 */
function seedAcmeCalls(s: Seeder): void {
  s.prompt({
    name: 'Caller: Broken Kettle',
    description: 'Plays an annoyed customer who wants a refund',
    group: 'simulation',
    user_prompt: 'You are calling Acme Support. {{persona}} Say only your next line. The call so far:\n{{transcript}}',
    system: 'Stay in character. Say "[end]" when you have what you wanted.',
    ai_model: 'gpt-4o-mini',
    settings: JSON.stringify({
      caller: {
        lines: [
          { when: '\\bdays?\\b', say: '[end] Thanks, that is all I needed.' },
          { when: 'not sure', say: 'Then find out, please. How long does my refund take?' },
        ],
        otherwise: 'My kettle broke after a week. I want a refund. How long does it take?',
      },
    }),
  });
  const daysRubric = 'days';
  s.prompt({
    name: 'Call Judge',
    description: 'Judges a call transcript against a rubric',
    group: 'simulation',
    user_prompt:
      'Rubric: {{rubric}}\n\nCall:\n{{transcript}}\n\nAnswer with one JSON object: {"reasoning": "...", "verdict": "pass" or "fail", "quote": "..."}.',
    system: 'You judge support calls strictly. Reason before you give the verdict.',
    ai_model: 'gpt-4o',
    temparature: 0,
    settings: JSON.stringify({
      judge: {
        rules: [
          {
            when: 'assistant \\([^)]*\\): ([^\\n]*\\b\\d+ (?:business |working )?days\\b[^\\n]*)',
            rubric: daysRubric,
            verdict: 'pass',
            reasoning: 'The assistant tells the caller how many days the refund takes.',
          },
          {
            rubric: daysRubric,
            verdict: 'fail',
            reasoning: 'No answer of the assistant says how many days a refund takes.',
          },
        ],
        otherwise: {
          verdict: 'fail',
          reasoning: 'This judge knows only the rubric about how many days a refund takes.',
        },
      },
    }),
  });
}

function seedVoicebox(s: Seeder): void {
  s.add('integration', {
    name: 'OpenAI Realtime',
    system: 'openai',
    technical_id: 'voicebox-openai-realtime',
    mode: 'activated',
    url: 'https://api.openai.com/v1',
    tec_params: { api_key: 'sk-voicebox-sample-not-a-real-key', model: 'gpt-4o-realtime-preview' },
  });
  const twilio = s.add('integration', {
    name: 'Twilio Voice',
    system: 'twilio',
    technical_id: 'voicebox-twilio-voice',
    mode: 'activated',
    url: 'https://api.twilio.com/2010-04-01',
    tec_params: {
      account_sid: 'AC00000000000000000000000000000002',
      auth_token: 'sample-twilio-voice-token',
      phone_number: '+15557770100',
    },
  });
  s.add('integration', {
    name: 'Deepgram Phone Call',
    system: 'deepgram',
    technical_id: 'voicebox-deepgram-phonecall',
    mode: 'activated',
    url: 'https://api.deepgram.com/v1/listen',
    tec_params: { api_key: 'dg-voicebox-sample-key', model: 'nova-2-phonecall', language: 'en-US' },
  });
  const lookupCustomer = functionDef(
    'lookup_customer',
    "Find the caller's account and plan",
    {
      customer_id: param('string', 'Customer number read out by the caller'),
      fields: param('object', 'Optional filters, e.g. {"active": true}'),
    },
    ['customer_id'],
  );
  const crm = s.add('integration', {
    name: 'CRM Customer Lookup',
    system: 'http_api',
    technical_id: 'voicebox-crm-lookup',
    mode: 'activated',
    url: 'https://crm.voicebox.example',
    tec_params: {
      request: {
        name: 'CRM customer lookup',
        url: 'https://crm.voicebox.example/api/v2/customers/{{customer_id}}/lookup',
        method: 'POST',
        api_key: 'voicebox-crm-sample-key',
        headers: { 'X-Api-Key': '{{api_key}}', 'Content-Type': 'application/json' },
        function_definition: lookupCustomer,
        fixed_parameters: { source: 'voice-agent', include: ['plan', 'balance'] },
        say_before: 'Let me pull up your account.',
      },
    },
  });

  const voice = { voice: 'coral', ai_model: 'gpt-4o-realtime-preview', group: 'calls' };
  const greeting = s.prompt({
    ...voice,
    name: 'Inbound Call Greeting',
    description: 'Answers every inbound call',
    user_prompt: 'The caller {{caller_number}} has account {{account_id}}. Greet them and ask for their request.',
    system: 'You are Vera, the Voicebox phone assistant. Speak naturally and briefly.',
    assistant: 'Hi, this is Vera from Voicebox.',
    user_name: 'caller',
    initial_announcement: 'Thank you for calling Voicebox Telecom. This call may be recorded.',
    initial_response: 'Hi, this is Vera. How can I help you today?',
    settings: '{"language":"en-US","barge_in":true}',
  });
  const advisor = s.prompt({
    ...voice,
    name: 'Plan Advisor',
    description: 'Recommends a plan',
    user_prompt: 'Recommend a plan for {{monthly_minutes}} minutes and {{data_gb}} GB.',
    system: 'Compare at most two plans.',
    initial_response: 'Let me find the best plan for you.',
    function_defs: JSON.stringify([lookupCustomer]),
  });
  const confirm = s.prompt({
    ...voice,
    name: 'Plan Upgrade Confirmation',
    description: 'Confirms the chosen plan',
    user_prompt: 'Confirm the switch to {{plan_name}}.',
    system: 'Repeat the price before confirming.',
    initial_response: 'Shall I switch you over?',
  });
  const transfer = s.prompt({
    ...voice,
    name: 'Transfer to Agent',
    description: 'Ends the automated part of the call',
    user_prompt: 'Tell the caller they are being transferred.',
    system: 'Be brief.',
    initial_response: 'I will transfer you to a colleague now.',
  });
  s.chain([greeting, advisor, confirm], transfer);
  const routing = s.prompt({
    ...voice,
    name: 'Call Routing',
    description: 'Groups the inbound call prompts',
    prompt_type: 2,
    user_prompt: '',
    system: 'Pick the prompt that matches the caller request.',
  });
  s.prompt({
    ...voice,
    name: 'Account Balance API',
    description: 'Reads the balance from the CRM',
    prompt_type: 3,
    group: 'api',
    user_prompt: 'Tell the caller the balance of account {{account_id}}.',
    system: 'Use lookup_customer.',
    function_defs: JSON.stringify([lookupCustomer]),
    settings: '{"language":"en-US","integration":"voicebox-crm-lookup"}',
  });
  s.prompt({
    name: 'Call Quality Analysis',
    description: 'Rates a call transcript',
    prompt_type: 4,
    group: 'analytics',
    user_prompt: 'Rate the call quality of this transcript from 1 to 5: {{transcript}}',
    system: 'Answer with a number.',
    ai_model: 'gpt-4o-mini',
    temparature: 0,
    max_tokens: 10,
  });
  s.prompt({
    name: 'Daily Call Summary',
    description: 'Summarises the calls of a day',
    prompt_type: 5,
    mode: 3,
    group: 'analytics',
    user_prompt: 'Summarise the calls of {{date}}.',
    system: 'List the top three reasons for calling.',
    ai_model: 'gpt-4o',
  });

  const lookupFn = s.add('function', {
    name: 'lookup_customer',
    description: lookupCustomer.description ?? null,
    parameters: lookupCustomer.parameters ?? null,
  });
  const balanceFn = s.add('function', {
    name: 'get_account_balance',
    description: 'Current balance and due date of an account',
    parameters: {
      type: 'object',
      properties: { account_id: param('string', 'Account number') },
      required: ['account_id'],
    },
  });
  s.add('function', {
    name: 'schedule_callback',
    description: 'Book a call back from a human agent',
    parameters: {
      type: 'object',
      properties: {
        phone_number: param('string', 'Number to call back'),
        preferred_time: param('string', 'ISO 8601 time'),
      },
      required: ['phone_number'],
    },
  });

  const hello = s.add('action', {
    name: 'Play Greeting',
    action_type: 1,
    initial_announcement: 'Thank you for calling Voicebox Telecom.',
    initial_response: 'How can I help?',
    voice: 'coral',
    speak: 'Welcome to Voicebox Telecom.',
  });
  const toSupport = s.add('action', {
    name: 'Forward to Support Line',
    action_type: 2,
    voice: 'coral',
    speak: 'Transferring you to technical support.',
    forward_number: '+15557770199',
    initial_response: 'Please hold.',
  });
  const crmLookup = s.add('action', {
    name: 'Look Up Caller',
    action_type: 3,
    voice: 'coral',
    speak: 'Let me find your account.',
    integration_id: crm.id,
    say_before: 'Let me pull up your account.',
    result_prompt: 'Greet the caller by name using: {{result}}',
  });
  const sms = s.add('action', {
    name: 'Text Confirmation',
    action_type: 4,
    voice: 'verse',
    speak: 'I have sent you a text confirmation.',
    integration_id: twilio.id,
    say_before: 'Sending the confirmation now.',
    result_prompt: 'Confirm the text was sent.',
  });

  const vera = s.add('agent', { name: 'Vera Voice Receptionist', description: 'Answers the main support line' });
  vera.agentPrompts = [
    s.agentPrompt(
      'Welcome',
      'Greet the caller and identify their account.',
      'Hi, this is Vera. How can I help?',
      'coral',
      {
        function_ids: [lookupFn.id],
        tools: [{ type: 'function', name: 'lookup_customer' }],
        actions: { on_start: hello.id },
        integration: {
          id: crm.id,
          name: 'CRM Customer Lookup',
          server: 'https://crm.voicebox.example/mcp',
          bearer_token: 'sample-voicebox-mcp-token',
        },
      },
    ),
    s.agentPrompt('Billing', 'Answer balance and invoice questions.', 'Let me check your balance.', 'coral', {
      function_ids: [balanceFn.id],
      actions: { on_confirm: sms.id },
    }),
    s.agentPrompt('Handoff', 'Transfer the caller to a human.', 'Transferring you now.', 'coral', {
      actions: { on_start: toSupport.id },
    }),
  ];
  const afterHours = s.add('agent', { name: 'After-hours Line', description: 'Takes messages outside opening hours' });
  afterHours.agentPrompts = [
    s.agentPrompt('Closed Notice', 'Explain the opening hours.', 'Our office is closed right now.', 'shimmer'),
    s.agentPrompt('Callback', 'Offer a call back and collect a number.', 'Can we call you back tomorrow?', 'shimmer'),
  ];

  const billing = s.add('intent', {
    name: 'billing',
    display_name: 'Billing',
    intent_type: 2,
    ai_prompt_id: routing.id,
  });
  const balance = s.add('intent', {
    name: 'check_balance',
    display_name: 'Check balance',
    intent_type: 1,
    parent_id: billing.id,
    ai_prompt_id: greeting.id,
    speak: 'Let me check your balance.',
  });
  balance.actionIds = [crmLookup.id];
  const dispute = s.add('intent', {
    name: 'dispute_charge',
    display_name: 'Dispute a charge',
    intent_type: 1,
    parent_id: billing.id,
    ai_prompt_id: advisor.id,
  });
  dispute.actionIds = [crmLookup.id, sms.id];
  const roaming = s.add('intent', {
    name: 'dispute_roaming_charge',
    display_name: 'Dispute a roaming charge',
    intent_type: 1,
    parent_id: dispute.id,
    ai_prompt_id: transfer.id,
    forward_number: '+15557770150',
    speak: 'I will connect you with our roaming team.',
  });
  roaming.actionIds = [toSupport.id];
  const plans = s.add('intent', {
    name: 'change_plan',
    display_name: 'Change plan',
    intent_type: 1,
    ai_prompt_id: advisor.id,
    speak: 'Let us find a better plan.',
  });
  plans.actionIds = [hello.id];

  s.add('datasource', {
    name: 'Plans and Prices',
    type: 'webpage',
    url: 'https://www.voicebox.example/plans',
    metadata: { last_updated: '2025-02-20T10:00:00Z', size: '85 KB', description: 'Public plan overview' },
  });
  s.add('datasource', {
    name: 'Roaming Rules',
    type: 'text',
    content:
      'Roaming in the EU is included in every plan. Outside the EU calls cost 0.99 per minute and data 5.00 per GB.',
    metadata: { last_updated: '2025-01-30T14:15:00Z', size: '2 KB', description: 'Roaming charges' },
  });
  s.add('datasource', {
    name: 'Device Manuals',
    type: 'file',
    url: 'https://files.voicebox.example/manuals/router-x2.pdf',
    metadata: { last_updated: '2024-11-05T09:00:00Z', size: '12.5 MB', description: 'Router X2 manual' },
  });
  s.add('datasource', {
    name: 'Subscriber Database',
    type: 'database',
    metadata: { last_updated: '2025-03-12T05:00:00Z', size: '8.7 GB', description: 'Subscribers, plans and invoices' },
  });
}
