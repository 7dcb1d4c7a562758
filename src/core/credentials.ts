/**
 * Credentials inside resource documents: a tenant's auth_token, secrets in an
 * integration's tec_params (and its request definition's api_key), the
 * bearer_token of an agent prompt's integration. Documents show them masked;
 * a save puts the originals back wherever the mask was left untouched.
 */
import type { KindId } from './resource-kind';
import { isJsonObject, setAt, valueAt, type Json, type JsonObject, type JsonPath } from './json';

export const CREDENTIAL_MASK = '••••••••';

/** Keys of tec_params entries that hold secrets, at any depth. */
const SECRET_KEY = /(key|token|secret|password|passwd|credential|auth)/i;

function secretsIn(value: Json | undefined, path: JsonPath, out: JsonPath[]): void {
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
export function credentialPaths(kind: KindId, detail: JsonObject): JsonPath[] {
  const paths: JsonPath[] = [];
  if (kind === 'tenant' && typeof detail.auth_token === 'string' && detail.auth_token !== '')
    paths.push(['auth_token']);
  if (kind === 'integration') secretsIn(detail.tec_params, ['tec_params'], paths);
  if (kind === 'agent' && isJsonObject(detail.configuration) && Array.isArray(detail.configuration.prompt)) {
    detail.configuration.prompt.forEach((element, index) => {
      const integration = isJsonObject(element) ? element.integration : undefined;
      if (
        isJsonObject(integration) &&
        typeof integration.bearer_token === 'string' &&
        integration.bearer_token !== ''
      ) {
        paths.push(['configuration', 'prompt', index, 'integration', 'bearer_token']);
      }
    });
  }
  return paths;
}

export function maskCredentials(kind: KindId, detail: JsonObject): JsonObject {
  return credentialPaths(kind, detail).reduce<Json>(
    (masked, path) => setAt(masked, path, CREDENTIAL_MASK),
    detail,
  ) as JsonObject;
}

/** The edited object with every still-masked credential set back to the original's value. */
export function restoreCredentials(kind: KindId, edited: JsonObject, original: JsonObject): JsonObject {
  return credentialPaths(kind, original).reduce<Json>(
    (restored, path) =>
      valueAt(restored, path) === CREDENTIAL_MASK ? setAt(restored, path, valueAt(original, path) ?? null) : restored,
    edited,
  ) as JsonObject;
}
