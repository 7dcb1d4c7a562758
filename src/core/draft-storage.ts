/**
 * How a draft (a `convai:` document's auto-saved text that was not uploaded)
 * is stored across window reloads: its base loses its credentials on the way
 * to disk and gets them back from the service's current object on the way in.
 */
import type { JsonObject } from './json';
import { maskCredentials, restoreCredentials } from './credentials';
import { formatDocument } from './json-document';
import type { KindId } from './resource-kind';
import { serviceBase, type ServiceBase } from './service-base';

export interface Draft {
  text: string;
  /** The service's object the text was edited from: the base of the conflict check when it is uploaded. */
  base: ServiceBase;
  /** Why it was not uploaded, in a few words. */
  why: string;
}

export interface StoredDraft {
  text: string;
  /** The base with its credentials masked. */
  maskedBase: string;
  why: string;
}

export function toStoredDraft(kind: KindId, draft: Draft): StoredDraft {
  return { text: draft.text, maskedBase: formatDocument(maskCredentials(kind, draft.base)), why: draft.why };
}

/** The draft again, its base's masked credentials taken from what the service holds now. */
export function fromStoredDraft(kind: KindId, stored: StoredDraft, current: JsonObject): Draft {
  return {
    text: stored.text,
    base: serviceBase(restoreCredentials(kind, JSON.parse(stored.maskedBase) as JsonObject, current)),
    why: stored.why,
  };
}
