/**
 * What a test scripted in a prompt's `settings` (a string holding JSON):
 * routes, or a caller, or a judge, and the prompt's own share of varied
 * answers. Settings that are not JSON or hold none of these are ignored
 * (settings hold other things on a real service).
 */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { type CallerScript, parseCaller } from './caller-script';
import { type JudgeScript, parseJudge } from './judge-script';
import { parseRoutes, type PromptRoute } from './prompt-routes';
import { isRate } from './runtime-options';
import { settingsError } from './settings-fields';

export type PromptRole =
  | { kind: 'assistant'; routes: PromptRoute[] }
  | { kind: 'caller'; caller: CallerScript }
  | { kind: 'judge'; judge: JudgeScript };

export interface PromptScript {
  role: PromptRole;
  /** Overrides the service's `answerVariation` for this prompt's answers. */
  answerVariation?: number;
}

const ROLES = ['routes', 'caller', 'judge'] as const;

export function promptScript(settings: Json | undefined): PromptScript {
  const parsed = parsedSettings(settings);
  if (parsed === undefined) return { role: { kind: 'assistant', routes: [] } };
  const present = ROLES.filter((key) => own(parsed, key) !== undefined);
  // A caller or judge answers by its own rules, so routes beside them would be silently ignored.
  if (present.length > 1)
    throw settingsError(`holds ${present.join(' and ')}; a prompt takes one of: ${ROLES.join(', ')}`);
  const variation = own(parsed, 'answerVariation');
  if (variation !== undefined && !isRate(variation))
    throw settingsError(`answerVariation must be a number from 0 to 1, got ${JSON.stringify(variation)}`);
  return { role: role(parsed), answerVariation: variation };
}

function role(settings: JsonObject): PromptRole {
  const caller = own(settings, 'caller');
  if (caller !== undefined) return { kind: 'caller', caller: parseCaller(caller) };
  const judge = own(settings, 'judge');
  if (judge !== undefined) return { kind: 'judge', judge: parseJudge(judge) };
  const routes = own(settings, 'routes');
  return { kind: 'assistant', routes: routes === undefined ? [] : parseRoutes(routes) };
}

function parsedSettings(settings: Json | undefined): JsonObject | undefined {
  if (typeof settings !== 'string') return undefined;
  try {
    const parsed = JSON.parse(settings) as Json;
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
