/** Adds sample resources to one tenant of the store, as the service's create would. */

import type { JsonObject } from '../../src/core/json';
import { kindById } from './kinds';
import { createRecord, newAgentPrompt } from './records';
import type { AgentPrompt, ResourceKindId, Row, Store } from './store';

export class Seeder {
  constructor(
    readonly store: Store,
    readonly tenantId: number,
  ) {}

  add(kind: ResourceKindId, fields: JsonObject): Row {
    return createRecord(this.store, kindById(kind), this.tenantId, fields);
  }

  /** A prompt with the fields most samples share; `fields` overrides them. */
  prompt(fields: JsonObject): Row {
    return this.add('prompt', {
      prompt_type: 1,
      mode: 1,
      temparature: 0.7,
      max_tokens: 300,
      settings: '{"language":"en"}',
      function_defs: '[]',
      prompt_mode: 1,
      ...fields,
    });
  }

  /** Prompt A leads to B and so on; every link exits to `exit`. */
  chain(prompts: Row[], exit: Row): void {
    prompts.forEach((prompt, index) => {
      prompt.values.next_prompt_id = prompts[index + 1]?.id ?? null;
      prompt.values.exit_prompt_id = exit.id;
    });
  }

  agentPrompt(
    name: string,
    prompt: string,
    initialResponse: string,
    voice: string,
    extra: Partial<AgentPrompt> = {},
  ): AgentPrompt {
    return { ...newAgentPrompt(this.store, name), prompt, initial_response: initialResponse, voice, ...extra };
  }
}
