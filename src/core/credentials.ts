/**
 * Credentials inside resource documents: a tenant's auth_token, secrets in an
 * integration's tec_params (and its request definition's api_key), the
 * bearer_token of an agent prompt's integration. Documents show them masked;
 * a save puts the originals back wherever the mask was left untouched.
 */
import type { Json, JsonObject } from './client';
import type { KindId } from './resources';
import { isJsonObject } from './json-object';

export const CREDENTIAL_MASK = '••••••••';

type Path = Array<string | number>;

/** Keys of tec_params entries that hold secrets, at any depth. */
const SECRET_KEY = /(key|token|secret|password|passwd|credential|auth)/i;

function secretsIn(value: Json | undefined, path: Path, out: Path[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => secretsIn(item, [...path, index], out));
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && item !== '' && SECRET_KEY.test(key)) out.push([...path, key]);
      else secretsIn(item, [...path, key], out);
    }
  }
}

/** Where the credentials of a detail object are. */
export function credentialPaths(kind: KindId, detail: JsonObject): Path[] {
  const paths: Path[] = [];
  if (kind === 'tenant' && typeof detail.auth_token === 'string' && detail.auth_token !== '') paths.push(['auth_token']);
  if (kind === 'integration') secretsIn(detail.tec_params, ['tec_params'], paths);
  if (kind === 'agent' && isJsonObject(detail.configuration) && Array.isArray(detail.configuration.prompt)) {
    detail.configuration.prompt.forEach((element, index) => {
      const integration = isJsonObject(element) ? element.integration : undefined;
      if (isJsonObject(integration) && typeof integration.bearer_token === 'string' && integration.bearer_token !== '') {
        paths.push(['configuration', 'prompt', index, 'integration', 'bearer_token']);
      }
    });
  }
  return paths;
}

function get(value: Json | undefined, path: Path): Json | undefined {
  let current = value;
  for (const step of path) {
    if (Array.isArray(current) && typeof step === 'number') current = current[step];
    else if (isJsonObject(current) && typeof step === 'string' && Object.prototype.hasOwnProperty.call(current, step)) current = current[step];
    else return undefined;
  }
  return current;
}

/** A copy of `value` with the value at `path` replaced, when that path exists. */
function replaced(value: Json, path: Path, next: Json): Json {
  const [step, ...rest] = path;
  if (step === undefined) return next;
  if (Array.isArray(value) && typeof step === 'number' && step < value.length) {
    return value.map((item, index) => (index === step ? replaced(item, rest, next) : item));
  }
  if (isJsonObject(value) && typeof step === 'string' && Object.prototype.hasOwnProperty.call(value, step)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) copy[key] = key === step ? replaced(item, rest, next) : item;
    return copy;
  }
  return value;
}

export function maskCredentials(kind: KindId, detail: JsonObject): JsonObject {
  return credentialPaths(kind, detail).reduce<Json>((masked, path) => replaced(masked, path, CREDENTIAL_MASK), detail) as JsonObject;
}

/** The edited object with every still-masked credential set back to the original's value. */
export function restoreCredentials(kind: KindId, edited: JsonObject, original: JsonObject): JsonObject {
  return credentialPaths(kind, original).reduce<Json>(
    (restored, path) => (get(restored, path) === CREDENTIAL_MASK ? replaced(restored, path, get(original, path) ?? null) : restored),
    edited,
  ) as JsonObject;
}
