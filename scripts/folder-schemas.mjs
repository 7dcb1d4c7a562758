// @ts-check
// The schemas of a pulled tenant folder's files, derived at build time from the resource schemas in schemas/, so the
// two never drift: a folder file holds the `id` and the editable fields, a prompt's settings and function_defs as the
// JSON they hold, its texts either inline or in sibling Markdown files, and references as ids or as the path of a
// resource file of the folder (created in the same push).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Fields the service sets; a folder file leaves them out (src/core/resource-table.ts marks them serviceOwned). */
const SERVICE_OWNED = new Set(['tenant_id', 'number', 'status', 'ai_actions', 'auth_token', 'booked_package']);
/** Reference fields and what they name (src/core/references.ts). */
const REFERENCES = {
  next_prompt_id: 'ai_prompts',
  exit_prompt_id: 'ai_prompts',
  ai_prompt_id: 'ai_prompts',
  parent_id: 'intents',
  integration_id: 'integrations',
};
const TEXT_FIELDS = ['user_prompt', 'system', 'assistant'];
const KINDS = ['integrations', 'ai_prompts', 'ai_functions', 'ai_actions', 'agents', 'intents', 'datasources'];

/**
 * @param {Record<string, any>} object
 * @param {string[]} keys
 */
function without(object, ...keys) {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}

/** @param {string} file */
function readSchema(file) {
  return /** @type {Record<string, any>} */ (JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * @param {Record<string, any>} schema
 * @param {string} segment
 * @param {Record<string, any>} functionDefinition
 */
function folderSchema(schema, segment, functionDefinition) {
  /** @type {Record<string, any>} */
  const properties = {};
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    if (SERVICE_OWNED.has(field)) continue;
    if (field === 'id') {
      properties.id = {
        ...property,
        description:
          "The resource's id on the service. Leave it out in a new file: the push creates the resource and writes its id here.",
      };
    } else if (field in REFERENCES) {
      const target = REFERENCES[/** @type {keyof typeof REFERENCES} */ (field)];
      properties[field] = {
        ...property,
        type: ['integer', 'null', 'string'],
        pattern: `^${target}/[^/]+\\.json$`,
        description:
          `${property.description ?? ''} In a tenant folder also the path of a resource file of the folder, such as "${target}/welcome.json", for one the same push creates; the push writes its id here.`.trim(),
      };
    } else if (segment === 'ai_prompts' && TEXT_FIELDS.includes(field)) {
      properties[field] = {
        ...property,
        description:
          `${property.description ?? ''} In a tenant folder it usually lives in the sibling file <name>.${field}.md; a value here wins.`.trim(),
      };
    } else if (segment === 'ai_prompts' && field === 'settings') {
      properties[field] = {
        title: property.title,
        description: "The prompt's settings as the JSON they hold (sent to the service as JSON text).",
        type: ['object', 'string', 'null'],
      };
    } else if (segment === 'ai_prompts' && field === 'function_defs') {
      properties[field] = {
        title: property.title,
        description:
          'The functions the AI may call while this prompt runs, as a JSON array (sent to the service as JSON text). Each name must be unique.',
        type: ['array', 'string', 'null'],
        items: functionDefinition,
      };
    } else {
      properties[field] = property;
    }
  }
  return {
    ...without(schema, '$id'),
    $id: `https://convai.dev/schemas/folder/${segment}.schema.json`,
    description: `${schema.description ?? ''} (a file of a pulled tenant folder)`.trim(),
    properties,
  };
}

/**
 * Writes `<outDir>/<segment>.schema.json` for every kind from the schemas in `schemaDir`.
 * @param {string} schemaDir
 * @param {string} outDir
 */
export function writeFolderSchemas(schemaDir, outDir) {
  mkdirSync(outDir, { recursive: true });
  const functionDefinition = without(
    readSchema(path.join(schemaDir, 'function_definition.schema.json')),
    '$schema',
    '$id',
  );
  for (const segment of KINDS) {
    const schema = folderSchema(
      readSchema(path.join(schemaDir, `${segment}.schema.json`)),
      segment,
      functionDefinition,
    );
    writeFileSync(path.join(outDir, `${segment}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`);
  }
}
