/** A change's fields as a plan shows them: the service's value and the folder's, each with its credentials masked. */
import { CREDENTIAL_MASK, credentialPaths } from '../credentials';
import { isJsonObject, setAt, valueAt, type Json, type JsonObject } from '../json';
import type { KindId } from '../resource-kind';
import { hideUrlPasswords } from '../url-credentials';
import { KEPT_ON_SERVICE } from './folder-values';

export interface FieldChange {
  field: string;
  /** The service's value (absent for a create), credentials masked. */
  old?: Json;
  /** The folder's value (absent for a delete), credentials masked. */
  new?: Json;
}

/** Credentials shown masked: a plan is something people read and paste. */
function masked(kind: KindId, field: string, value: Json | undefined): Json | undefined {
  if (value === undefined) return value;
  let out = hideUrlPasswords(value, CREDENTIAL_MASK);
  if (!isJsonObject(value)) return out;
  for (const path of credentialPaths(kind, { [field]: value })) {
    const [, ...inner] = path;
    // The marker already hides the credential and says more than the mask would.
    if (valueAt(out, inner) !== KEPT_ON_SERVICE) out = setAt(out, inner, CREDENTIAL_MASK);
  }
  return out;
}

export function valuesOf(
  kind: KindId,
  fields: string[],
  current: JsonObject | undefined,
  local: JsonObject | undefined,
): FieldChange[] {
  return fields.map((field) => ({
    field,
    ...(current && field in current ? { old: masked(kind, field, current[field]) } : {}),
    ...(local && field in local ? { new: masked(kind, field, local[field]) } : {}),
  }));
}
