/** The two operations on a stored resource: test_prompt and execute_action. */

import { outgoingRequest, OutgoingRequestError, type OutgoingRequest, type StoredRequest } from './outgoing-request';
import { isJsonObject, type Json, type JsonObject, own } from '../../src/core/json';
import { badRequest, invalidField } from './replies';
import { callerLine } from './caller-script';
import { judgement, judgeResponse } from './judge-script';
import { routeFor, type PromptRoute } from './prompt-routes';
import { type PromptRole, promptScript } from './prompt-script';
import { fillPlaceholders } from './settings-fields';

const OUTGOING_TIMEOUT_MS = 10_000;
const PROMPT_MODE_DEACTIVATED = 2;
const PROMPT_MODE_SIMULATED = 3;

const ACTION_NAMES = ['ping', 'echo', 'fail', 'call_api'] as const;

/** Operation bodies are not wrapped; an empty body counts as `{}`. */
function operationBody(body: Json | undefined): JsonObject {
  if (body === undefined) {
    return {};
  }
  if (!isJsonObject(body)) {
    throw badRequest('request body must be a JSON object');
  }
  return body;
}

/** An optional object field; null counts as absent. */
function optionalObject(body: JsonObject, field: string): JsonObject | undefined {
  const value = own(body, field);
  if (value === undefined || value === null) {
    return undefined;
  }
  if (!isJsonObject(value)) {
    throw invalidField(field, 'must be an object');
  }
  return value;
}

function requiredString(body: JsonObject, field: string): string {
  const value = own(body, field);
  if (value === undefined || value === null) {
    throw invalidField(field, "can't be blank");
  }
  if (typeof value !== 'string') {
    throw invalidField(field, 'must be a string');
  }
  return value;
}

/** What a real model would say when unsure; a varied answer says it instead of the echo. */
export const VARIED_RESPONSE = 'I am not sure.';

/**
 * Offline: see README "test_prompt". `prompt` is the prompt's detail view;
 * `varies` draws whether this answer differs (the `answerVariation` option,
 * or the prompt's own rate when its settings set one).
 */
export function testPrompt(
  prompt: JsonObject,
  requestBody: Json | undefined,
  varies: (rate?: number) => boolean,
): JsonObject {
  const body = operationBody(requestBody);
  const promptText = requiredString(body, 'prompt_text');
  const params = optionalObject(body, 'prompt_params') ?? {};
  const mode = own(prompt, 'mode');
  if (mode === PROMPT_MODE_DEACTIVATED) {
    throw invalidField('mode', 'prompt is deactivated');
  }
  const userPrompt = own(prompt, 'user_prompt');
  const script = promptScript(own(prompt, 'settings'));
  const answer = scriptedAnswer(prompt, script.role, promptText, params, varies(script.answerVariation));
  return {
    response: mode === PROMPT_MODE_SIMULATED ? `[simulated] ${answer.response}` : answer.response,
    altered_prompt: fillPlaceholders(typeof userPrompt === 'string' ? userPrompt : '', params),
    next_prompt_id: answer.route?.nextPromptId ?? own(prompt, 'next_prompt_id') ?? null,
    next_prompt_params: answer.route ? { ...params, ...answer.route.params } : params,
  };
}

/** The response by the prompt's role, and the route an assistant's answer follows. */
function scriptedAnswer(
  prompt: JsonObject,
  role: PromptRole,
  promptText: string,
  params: JsonObject,
  varied: boolean,
): { response: string; route?: PromptRoute } {
  switch (role.kind) {
    case 'caller':
      return { response: varied ? VARIED_RESPONSE : callerLine(role.caller, promptText, params) };
    case 'judge': {
      const transcript = own(params, 'transcript');
      const rubric = own(params, 'rubric');
      const decided = judgement(
        role.judge,
        typeof transcript === 'string' ? transcript : promptText,
        typeof rubric === 'string' ? rubric : '',
      );
      // An unsure judge reverses itself, so a majority over repeated judgements has something to outvote.
      const answer = varied
        ? { reasoning: VARIED_RESPONSE, verdict: decided.verdict === 'pass' ? ('fail' as const) : ('pass' as const) }
        : decided;
      return { response: judgeResponse(role.judge.format, answer) };
    }
    case 'assistant': {
      // An unsure answer follows no route, so a conversation's routing varies with it.
      const route = varied ? undefined : routeFor(role.routes, promptText);
      if (route?.say !== undefined)
        return { response: fillPlaceholders(route.say, { ...params, ...route.params }), route };
      const ownText = ownWords(prompt);
      if (ownText !== undefined && !varied) return { response: fillPlaceholders(ownText, params), route };
      const model = own(prompt, 'ai_model');
      return {
        response: varied
          ? VARIED_RESPONSE
          : `Echo (${typeof model === 'string' && model !== '' ? model : 'default model'}): ${promptText}`,
        route,
      };
    }
  }
}

/** A line `Say exactly: <words>` of the prompt's system text: the answer its own text dictates, so versions differ. */
function ownWords(prompt: JsonObject): string | undefined {
  const system = own(prompt, 'system');
  return typeof system === 'string' ? /^Say exactly: (.*)$/m.exec(system)?.[1] : undefined;
}

/** `integration` is the integration's detail view; `signal` aborts when the service closes. */
export async function executeAction(
  integration: JsonObject,
  requestBody: Json | undefined,
  signal: AbortSignal,
): Promise<JsonObject> {
  const body = operationBody(requestBody);
  const action = requiredString(body, 'action');
  const params = optionalObject(body, 'params');
  switch (action) {
    case 'ping':
      return { result: 'pong', status: 'success' };
    case 'echo':
      return { result: JSON.stringify(params ?? {}), status: 'success' };
    case 'fail': {
      const reason = params && own(params, 'reason');
      return {
        result: typeof reason === 'string' ? reason : `simulated failure of ${String(own(integration, 'name'))}`,
        status: 'error',
      };
    }
    case 'call_api':
      return callApi(integration, params ?? {}, signal);
    default:
      throw invalidField('action', `is not supported (use one of: ${ACTION_NAMES.join(', ')})`);
  }
}

async function callApi(integration: JsonObject, params: JsonObject, signal: AbortSignal): Promise<JsonObject> {
  const tecParams = own(integration, 'tec_params');
  const definition = requestDefinition(isJsonObject(tecParams) ? own(tecParams, 'request') : undefined);
  if (typeof definition === 'string') {
    throw invalidField('tec_params', definition);
  }
  const built = buildOrReject(definition, params);
  try {
    const response = await fetch(built.url, {
      method: built.method,
      headers: built.headers,
      body: built.body === undefined ? undefined : JSON.stringify(built.body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(OUTGOING_TIMEOUT_MS)]),
    });
    const text = await response.text();
    return { result: text, status: response.ok ? 'success' : 'error' };
  } catch (error) {
    return { result: failureMessage(error), status: 'error' };
  }
}

/** A definition that cannot take these params is the caller's mistake: 422 naming `params`. */
function buildOrReject(definition: StoredRequest, params: JsonObject): OutgoingRequest {
  try {
    return outgoingRequest(definition, params);
  } catch (error) {
    if (error instanceof OutgoingRequestError) throw invalidField('params', error.message);
    throw error;
  }
}

/** fetch reports "fetch failed" and hides the useful part in `cause`. */
function failureMessage(error: unknown): string {
  if (!(error instanceof Error)) {
    return String(error);
  }
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/** The stored `tec_params.request` as a request definition, or what is wrong with it. */
function requestDefinition(value: Json | undefined): StoredRequest | string {
  if (!isJsonObject(value)) {
    return 'has no request definition in tec_params.request';
  }
  const url = own(value, 'url');
  const method = own(value, 'method');
  const apiKey = own(value, 'api_key');
  const headers = own(value, 'headers') ?? {};
  const fixed = own(value, 'fixed_parameters') ?? {};
  const functionDefinition = own(value, 'function_definition');
  if (typeof url !== 'string' || typeof method !== 'string') {
    return 'request needs a url and a method';
  }
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') {
    return 'request api_key must be a string';
  }
  const headerEntries = isJsonObject(headers) ? Object.entries(headers) : [];
  const stringHeaders = headerEntries.flatMap(([name, text]) =>
    typeof text === 'string' ? [[name, text] as const] : [],
  );
  if (!isJsonObject(headers) || stringHeaders.length !== headerEntries.length) {
    return 'request headers must be an object of strings';
  }
  if (!isJsonObject(fixed)) {
    return 'request fixed_parameters must be an object';
  }
  if (!hasProperties(functionDefinition)) {
    // Rule 5: required even when the request takes no parameters.
    return 'request needs a function_definition with parameters.properties';
  }
  return {
    url,
    method,
    api_key: typeof apiKey === 'string' ? apiKey : undefined,
    headers: Object.fromEntries(stringHeaders),
    fixed_parameters: fixed,
  };
}

function hasProperties(functionDefinition: Json | undefined): boolean {
  const parameters = isJsonObject(functionDefinition) ? own(functionDefinition, 'parameters') : undefined;
  return isJsonObject(parameters) && isJsonObject(own(parameters, 'properties'));
}
