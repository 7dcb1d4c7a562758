/**
 * What stands in the way of a push, found before anything is sent: references
 * to files that are not there, values the service would refuse, text parts
 * that are gone, names used twice. Each problem sits at its file and place.
 */
import type { Json, JsonObject } from '../json';
import { PROMPT_TEXT_FIELDS } from '../prompt-text';
import { REFERENCE_FIELDS } from '../references';
import { repeatedBy } from '../repeated';
import { kindOfSegment } from '../resources';
import type { Segment } from '../resource-kind';
import { validateDocument } from '../validation';
import { jsonProblem, type FolderProblem } from './folder-problems';
import type { LocalResource } from './folder-scan';
import type { PulledResource } from './manifest';
import { READ_ONLY, readOnlyHeld } from './read-only';
import { fingerprintsOf, sameFingerprint } from './field-fingerprints';
import { folderShape, KEPT_ON_SERVICE, resolveKept, wireValue } from './folder-values';
import { textFile } from './resource-files';
import type { ServiceNames } from './service-names';

/** Reference fields that name a file of the folder (a resource created in the same push) instead of an id. */
export function fileReferences(segment: Segment, values: JsonObject): Array<{ field: string; file: string }> {
  const references: Array<{ field: string; file: string }> = [];
  for (const field of referenceFieldsOf(segment)) {
    const value = values[field];
    if (typeof value === 'string') references.push({ field, file: value });
  }
  return references;
}

const referenceFields = new Map<Segment, string[]>();

/** The reference fields of a kind, found once: a plan asks for each of thousands of resources. */
function referenceFieldsOf(segment: Segment): string[] {
  let fields = referenceFields.get(segment);
  if (!fields) {
    fields = REFERENCE_FIELDS.filter((r) => r.from === segment).map((r) => r.field);
    referenceFields.set(segment, fields);
  }
  return fields;
}

/** A problem about a field of a resource, at its place: in the JSON file, or the Markdown file that holds it. */
export function fieldProblem(
  resource: LocalResource,
  path: ReadonlyArray<string | number>,
  message: string,
): FolderProblem {
  const [field] = path;
  if (typeof field === 'string' && resource.parts.includes(field))
    return { file: textFile(resource.file.replace(/\.json$/, ''), field), line: 1, column: 1, message };
  return jsonProblem(resource.file, resource.text, path, message);
}

/** Problems a push cannot send: a kept credential in a new resource, a reference to a file that is not there. */
export function sendProblems(resource: LocalResource, files: ReadonlyMap<string, LocalResource>): FolderProblem[] {
  const problems: FolderProblem[] = [];
  for (const { field, file } of fileReferences(resource.segment, resource.values)) {
    if (!files.has(file))
      problems.push(
        fieldProblem(
          resource,
          [field],
          `${field}: names "${file}", which is no resource file of this folder; give an id, or the path of a resource file such as "ai_prompts/welcome.json"`,
        ),
      );
  }
  if (resource.id === undefined) {
    for (const path of resolveKept(resource.values, undefined).missing) {
      problems.push(
        fieldProblem(
          resource,
          path,
          `${path.join('.')}: a new resource has no value on the service to keep for ${KEPT_ON_SERVICE}; put the credential in, or set it on the service after the push`,
        ),
      );
    }
  }
  return problems;
}

/** An edit of the read-only references, or a new resource holding some: a push never sends them, so it must not seem to. */
export function readOnlyProblem(resource: LocalResource): FolderProblem {
  const kind = kindOfSegment(resource.segment);
  const held = readOnlyHeld(kind) ?? 'references';
  const fix =
    resource.id === undefined
      ? 'take the block out of this new file and set them on the service after the push'
      : 'change them on the service and pull, or pull to put back the pulled ones';
  return fieldProblem(
    resource,
    [READ_ONLY],
    `${READ_ONLY}: read-only: the service sets ${held} and a push never sends them (the folder keeps them for the flow map); ${fix}`,
  );
}

/**
 * Values the service would refuse (the save path's schemas and messages), so a push does not stop midway at a
 * 422: a create's fields in full, an update's changed fields. A reference naming a file is checked as an id.
 */
export function valueProblems(resource: LocalResource, fields: readonly string[] | 'all'): FolderProblem[] {
  const kind = kindOfSegment(resource.segment);
  const byFile = new Set(fileReferences(resource.segment, resource.values).map((r) => r.field));
  const candidate: JsonObject = {};
  for (const [field, value] of Object.entries(resource.values)) {
    if (field !== READ_ONLY) candidate[field] = byFile.has(field) ? null : wireValue(kind, field, value);
  }
  return validateDocument(resource.segment, candidate)
    .filter((p) => fields === 'all' || fields.includes(String(p.path[0])))
    .map((p) => fieldProblem(resource, p.path, p.message));
}

/** A pulled prompt's text file that is gone: neither a change nor silence, since the user's intent is unknown. */
export function missingParts(resource: LocalResource, entry: PulledResource): FolderProblem[] {
  if (resource.segment !== 'ai_prompts') return [];
  // A field pulled as null lived in the JSON file, not in a text file.
  const kept = fingerprintsOf(entry.fields);
  const pulledAsText = (field: string): boolean => kept.has(field) && !sameFingerprint(kept.get(field), null);
  return PROMPT_TEXT_FIELDS.filter((field) => pulledAsText(field) && !(field in resource.values)).map((field) => ({
    file: textFile(resource.file.replace(/\.json$/, ''), field),
    message: `${field}: this text part of ${resource.file} is missing; restore it with pull, or write an empty file to clear the field`,
  }));
}

/** The name a resource goes by in the folder: its file's, else the one it was pulled with. */
function nameOf(resource: LocalResource, entry: PulledResource | undefined): string | undefined {
  // The entry of files as pulled has their name, unless it stands for none (`#id`): then the file says which.
  const pulled = resource.asPulled?.name;
  if (pulled !== undefined && pulled !== `#${String(resource.id)}`) return pulled;
  return typeof resource.values.name === 'string' ? resource.values.name : entry?.name;
}

/** Names are identities (suites, promotion and lost creates find resources by them): two of one kind is a problem. */
export function duplicateNames(
  resources: readonly LocalResource[],
  entryOf: (r: LocalResource) => PulledResource | undefined,
): FolderProblem[] {
  const keyOf = (resource: LocalResource): string | undefined => {
    const name = nameOf(resource, entryOf(resource));
    return name === undefined ? undefined : `${resource.segment}\n${name}`;
  };
  return repeatedBy(resources, keyOf).flatMap((same) =>
    same.slice(1).map((resource) => {
      const others = same
        .filter((r) => r !== resource)
        .map((r) => r.file)
        .join(', ');
      return fieldProblem(
        resource,
        ['name'],
        `name: "${nameOf(resource, entryOf(resource)) ?? ''}" is also the name of ${others}; names are unique per kind in a folder, so rename one`,
      );
    }),
  );
}

/** A kept credential the service does not hold where the file keeps it: a push would fail there, so the plan says it now. */
export function keptProblems(resource: LocalResource, fields: readonly string[], detail: JsonObject): FolderProblem[] {
  const held = folderShape(kindOfSegment(resource.segment), detail);
  return fields
    .flatMap((field) => resolveKept(resource.values[field] as Json, held[field], [field]).missing)
    .map((path) =>
      fieldProblem(
        resource,
        path,
        `${path.join('.')}: keeps ${KEPT_ON_SERVICE}, but the service holds no credential there (a password inside a URL is kept only while the URL's scheme, user and host stay the same); put the value in the file`,
      ),
    );
}

/** The name a create or a rename would give a resource, when the service already has another resource of that kind so named. */
export async function nameTaken(names: ServiceNames, resource: LocalResource): Promise<FolderProblem[]> {
  const name = resource.values.name;
  if (typeof name !== 'string') return [];
  const holders = await names.unknownHolders(resource.segment, name);
  if (holders.length === 0) return [];
  const label = kindOfSegment(resource.segment).label;
  return [
    fieldProblem(
      resource,
      ['name'],
      `name: the service already holds ${label} "${name}" (id ${holders.map((h) => h.id).join(', ')}), which this folder does not; pull to get it, or choose another name`,
    ),
  ];
}
