/**
 * A prompt that plays a caller in a simulated call: its `settings.caller`
 * picks the caller's next line by the assistant's last answer (the
 * prompt_text), so a test can script a call that ends once the assistant has
 * said what the caller wanted to hear.
 */

import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { fillPlaceholders, pattern, settingsError, text } from './settings-fields';

interface CallerLine {
  when: RegExp;
  say: string;
}

export interface CallerScript {
  lines: CallerLine[];
  otherwise: string;
}

/** A caller with nothing left to say hangs up: the contract ends a call on a line beginning with `[end]`. */
const HANG_UP = '[end]';

/** `settings.caller`: `{ lines: [{ when, say }], otherwise? }`, or what is wrong with it. */
export function parseCaller(caller: Json): CallerScript {
  if (!isJsonObject(caller)) throw settingsError('caller must be an object { lines: [{ when, say }], otherwise? }');
  const lines = own(caller, 'lines') ?? [];
  if (!Array.isArray(lines)) throw settingsError('caller.lines must be an array of { when, say }');
  const otherwise = own(caller, 'otherwise');
  return {
    lines: lines.map((line, index) => parseLine(line, `caller.lines[${index}]`)),
    otherwise: otherwise === undefined ? HANG_UP : text(otherwise, 'caller.otherwise'),
  };
}

function parseLine(line: Json, where: string): CallerLine {
  if (!isJsonObject(line)) throw settingsError(`${where} must be an object { when, say }`);
  return { when: pattern(own(line, 'when'), `${where}.when`), say: text(own(line, 'say'), `${where}.say`) };
}

/** The first line whose `when` matches the assistant's answer, else `otherwise`; `{{name}}` filled from the params. */
export function callerLine(script: CallerScript, answer: string, params: JsonObject): string {
  const line = script.lines.find((candidate) => candidate.when.test(answer));
  return fillPlaceholders(line ? line.say : script.otherwise, params);
}
