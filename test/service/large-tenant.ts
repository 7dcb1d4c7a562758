/**
 * The `largeTenant` option (`--large`): tenant 3, "Bulk Co", of the size the
 * contract's "Large tenants" names, linked as an assistant's resources are, so
 * the tree's grouping, search, the flow map and folder commands meet it whole.
 * Every value derives from the resource's index alone, so each start seeds the
 * same.
 */

import type { JsonObject } from '../../src/core/json';
import type { Seeder } from './seeder';
import type { Row } from './store';

export const LARGE_TENANT = 'Bulk Co';

export const LARGE_TENANT_SHAPE = {
  prompts: 50_000,
  groups: 200,
  intents: 10_000,
  topIntents: 10,
  middleIntents: 990,
  eachOtherKind: 1_000,
} as const;

/** Names begin with every letter, so name ranges of the tree read as ranges of the alphabet. */
const WORDS = [
  'Account',
  'Billing',
  'Callback',
  'Delivery',
  'Enrollment',
  'Feedback',
  'Greeting',
  'Hours',
  'Insurance',
  'Jobs',
  'Keys',
  'Loyalty',
  'Membership',
  'Notices',
  'Orders',
  'Payments',
  'Quotes',
  'Returns',
  'Shipping',
  'Travel',
  'Upgrades',
  'Vouchers',
  'Warranty',
  'Xpress',
  'Yearly',
  'Zones',
] as const;

/** The n-th word, stepping by a number prime to 26 so neighbours differ in their first letter. */
const word = (n: number): string => WORDS[(n * 7) % WORDS.length] as string;
const padded = (n: number, width: number): string => String(n).padStart(width, '0');
const times = <T>(count: number, make: (n: number) => T): T[] => Array.from({ length: count }, (_, n) => make(n));
const nth = <T>(rows: readonly T[], n: number): T => rows[n % rows.length] as T;

export function groupName(index: number): string {
  return `group-${padded(index + 1, 3)}`;
}

export function seedLargeTenant(s: Seeder): void {
  const shape = LARGE_TENANT_SHAPE;
  const others = shape.eachOtherKind;
  const integrations = times(others, (n) =>
    s.add('integration', {
      name: `${word(n)} Integration ${padded(n + 1, 4)}`,
      system: 'http_api',
      technical_id: `bulk-integration-${n + 1}`,
      mode: 'activated',
      url: `https://api${n + 1}.bulk.example`,
    }),
  );
  const functions = times(others, (n) =>
    s.add('function', {
      name: `${word(n).toLowerCase()}_lookup_${padded(n + 1, 4)}`,
      description: `Looks up ${word(n).toLowerCase()} record ${n + 1}`,
      parameters: {
        type: 'object',
        properties: { record_id: { type: 'string', description: 'The record' } },
        required: ['record_id'],
      },
    }),
  );
  const actions = times(others, (n) =>
    s.add('action', {
      name: `${word(n)} Action ${padded(n + 1, 4)}`,
      action_type: n % 3 === 2 ? 1 : 3,
      voice: 'alloy',
      speak: `${word(n)} ${n + 1}.`,
      ...(n % 3 === 2 ? {} : { integration_id: nth(integrations, n).id }),
    }),
  );
  const groups = seedPromptGroups(s);
  seedIntents(s, groups, actions);
  times(others, (n) => {
    const agent = s.add('agent', {
      name: `${word(n)} Agent ${padded(n + 1, 4)}`,
      description: `Agent ${n + 1} of Bulk Co`,
    });
    const integration = nth(integrations, n);
    agent.agentPrompts = [
      s.agentPrompt(`Agent ${n + 1} Prompt`, 'Answer the caller.', 'Hello!', 'alloy', {
        function_ids: [nth(functions, n).id],
        integration: {
          id: integration.id,
          name: integration.values.name as string,
          server: `https://api${n + 1}.bulk.example/mcp`,
        },
      }),
    ];
  });
  times(others, (n) =>
    s.add('datasource', { name: `${word(n)} Source ${padded(n + 1, 4)}`, type: 'text', content: `Facts ${n + 1}.` }),
  );
}

/**
 * 250 prompts per group, each handing over to the next of its group; a group's
 * last hands over to the next group's first, so the groups form one ring.
 */
function seedPromptGroups(s: Seeder): Row[][] {
  const { prompts, groups } = LARGE_TENANT_SHAPE;
  const perGroup = prompts / groups;
  const rows = times(groups, (g) =>
    times(perGroup, (i) => {
      const n = g * perGroup + i;
      const fields: JsonObject = {
        name: `${word(n)} ${padded(n + 1, 5)}`,
        description: `Step ${i + 1} of ${groupName(g)}`,
        group: groupName(g),
        user_prompt: `Help {{customer_name}} with ${word(n).toLowerCase()} step ${i + 1}.`,
        system: 'Be brief.',
        ai_model: 'gpt-4o-mini',
      };
      return s.prompt(fields);
    }),
  );
  rows.forEach((group, g) =>
    group.forEach((prompt, i) => {
      const next = group[i + 1] ?? nth(rows, g + 1)[0];
      prompt.values.next_prompt_id = next?.id ?? null;
    }),
  );
  return rows;
}

/** Three levels: top group intents, middle group intents under them, leaves under those, each leading to a group's prompt. */
function seedIntents(s: Seeder, groups: readonly Row[][], actions: readonly Row[]): void {
  const { intents, topIntents, middleIntents } = LARGE_TENANT_SHAPE;
  const intent = (n: number, type: 1 | 2, parent: Row | undefined): Row => {
    const row = s.add('intent', {
      name: `${word(n).toLowerCase()}_intent_${padded(n + 1, 5)}`,
      display_name: `${word(n)} ${n + 1}`,
      intent_type: type,
      ai_prompt_id: (nth(groups, n)[0] as Row).id,
      ...(parent ? { parent_id: parent.id } : {}),
    });
    row.actionIds = [nth(actions, n).id];
    return row;
  };
  const tops = times(topIntents, (n) => intent(n, 2, undefined));
  const middles = times(middleIntents, (n) => intent(topIntents + n, 2, nth(tops, n)));
  times(intents - topIntents - middleIntents, (n) => intent(topIntents + middleIntents + n, 1, nth(middles, n)));
}
