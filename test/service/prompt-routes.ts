/**
 * Routes of the simulated AI: a prompt's `settings` may hold `routes`, so a
 * test can make answers lead to other prompts, or say a scripted answer,
 * according to the text sent, through the normal API.
 */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { pattern, settingsError, text } from './settings-fields';

export interface PromptRoute {
  when: RegExp;
  /** Absent: the prompt's own next_prompt_id. */
  nextPromptId?: number;
  params: JsonObject;
  /** The answer's response instead of the echo, `{{name}}` filled from the answer's next_prompt_params. */
  say?: string;
}

const SHAPE = '{ when, next_prompt_id?, say?, params? }';

/** The `routes` of a prompt's settings (already parsed), or what is wrong with them. */
export function parseRoutes(routes: Json): PromptRoute[] {
  if (!Array.isArray(routes)) throw settingsError(`routes must be an array of ${SHAPE}`);
  return routes.map((route, index) => parseRoute(route, `routes[${index}]`));
}

function parseRoute(route: Json, where: string): PromptRoute {
  if (!isJsonObject(route)) throw settingsError(`${where} must be an object ${SHAPE}`);
  const next = own(route, 'next_prompt_id');
  const say = own(route, 'say');
  const params = own(route, 'params') ?? {};
  if (next === undefined && say === undefined) throw settingsError(`${where} needs next_prompt_id, say or both`);
  const nextPromptId = next === undefined ? undefined : integer(next, `${where}.next_prompt_id`);
  if (!isJsonObject(params)) throw settingsError(`${where}.params must be an object`);
  return {
    when: pattern(own(route, 'when'), `${where}.when`),
    nextPromptId,
    params,
    say: say === undefined ? undefined : text(say, `${where}.say`),
  };
}

function integer(value: Json, where: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw settingsError(`${where} must be an integer`);
  return value;
}

/** The first route whose `when` matches the text, or undefined. */
export function routeFor(routes: readonly PromptRoute[], promptText: string): PromptRoute | undefined {
  return routes.find((route) => route.when.test(promptText));
}
