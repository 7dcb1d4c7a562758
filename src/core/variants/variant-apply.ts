/**
 * Apply Variant (contract: "Variant lab"): a prompt document's text with a variant's fields set in it, every other
 * field kept as it is (unsaved edits included) and in its place, in the documents' canonical formatting. The editor
 * applies it as an unsaved edit; saving it is the user's own step, after a trial.
 */
import { formatDocument, parseDocument } from '../json-document';
import { isJsonObject, type JsonObject } from '../json';

export function withVariantFields(text: string, fields: JsonObject, variant: string): string {
  const { value, syntaxProblems } = parseDocument(text);
  if (!isJsonObject(value)) {
    const why = syntaxProblems[0]?.message ?? 'it holds no JSON object';
    throw new Error(
      `The variant "${variant}" cannot be applied: the prompt's document is not a JSON object (${why}). Fix or revert the document, then apply the variant again.`,
    );
  }
  return formatDocument({ ...value, ...fields });
}
