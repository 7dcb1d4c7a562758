/**
 * Routes of the simulated AI: a prompt's `settings` (a string holding JSON)
 * may hold `routes`, so a test can make answers lead to other prompts
 * according to the text sent, through the normal API.
 */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { invalidField } from './replies';

export interface PromptRoute {
  when: RegExp;
  nextPromptId: number;
  params: JsonObject;
}

/**
 * The routes in a prompt's settings; none when the settings are absent, not
 * JSON or hold no `routes` (settings hold other things on a real service).
 * A malformed route is the test author's mistake: 422 naming `settings`.
 */
export function promptRoutes(settings: Json | undefined): PromptRoute[] {
  if (typeof settings !== 'string') return [];
  let parsed: Json;
  try {
    parsed = JSON.parse(settings) as Json;
  } catch {
    return [];
  }
  const routes = isJsonObject(parsed) ? own(parsed, 'routes') : undefined;
  if (routes === undefined) return [];
  if (!Array.isArray(routes)) throw invalidField('settings', 'routes must be an array of { when, next_prompt_id, params? }');
  return routes.map((route, index) => parseRoute(route, `routes[${index}]`));
}

function parseRoute(route: Json, where: string): PromptRoute {
  if (!isJsonObject(route)) throw invalidField('settings', `${where} must be an object { when, next_prompt_id, params? }`);
  const when = own(route, 'when');
  const next = own(route, 'next_prompt_id');
  const params = own(route, 'params') ?? {};
  if (typeof when !== 'string' || when === '') throw invalidField('settings', `${where}.when must be a non-empty regular expression`);
  if (typeof next !== 'number' || !Number.isSafeInteger(next)) throw invalidField('settings', `${where}.next_prompt_id must be an integer`);
  if (!isJsonObject(params)) throw invalidField('settings', `${where}.params must be an object`);
  try {
    return { when: new RegExp(when, 'i'), nextPromptId: next, params };
  } catch (error) {
    throw invalidField('settings', `${where}.when is not a regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The first route whose `when` matches the text, or undefined. */
export function routeFor(routes: readonly PromptRoute[], promptText: string): PromptRoute | undefined {
  return routes.find((route) => route.when.test(promptText));
}
