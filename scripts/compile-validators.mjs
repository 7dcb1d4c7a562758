// @ts-check
// Compiles the resource schemas (schemas/) with ajv's standalone mode into src/core/generated/validators.ts, so the
// bundles carry plain validation functions: neither ajv's compiler nor a compile step runs where a user waits.
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each SchemaName of src/core/validation.ts and the file of its schema. */
const SCHEMAS = {
  tenants: 'tenants',
  integrations: 'integrations',
  ai_prompts: 'ai_prompts',
  ai_functions: 'ai_functions',
  ai_actions: 'ai_actions',
  agents: 'agents',
  intents: 'intents',
  datasources: 'datasources',
  apirequest: 'apirequest',
  function_defs: 'function_defs',
};

/**
 * Keywords for editors only. The generated code embeds the schemas it reports from (ajv's `verbose`), and the
 * messages read only title, enum, enumNames and properties, so the editors' texts would be dead weight in the bundles.
 */
const EDITOR_ONLY = new Set([
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'defaultSnippets',
  'examples',
  'default',
  'errorMessage',
  'patternErrorMessage',
  'deprecationMessage',
  'allowComments',
  'allowTrailingCommas',
  '$comment',
  'readOnly',
]);
/**
 * The generated code without the two fields of each error that validation.ts never reads, its `schemaPath` and (of
 * `verbose`'s three) its `schema`: 19 KB of the package. Only a field written exactly as ajv writes it is taken out,
 * so a value with a comma or a quote in it (a pattern, say) keeps its field rather than being cut wrong.
 * @param {string} code
 */
function unreadFieldsOut(code) {
  return code
    .replace(/,schemaPath:"[^"\\]*",keyword:/g, ',keyword:')
    .replace(/([{,])schema:([\w.$]+|"[^"\\,]*"|\[[^\],]*\]),parentSchema:/g, '$1parentSchema:');
}

/** Keywords whose value maps names to subschemas, and those holding a subschema or a list of them. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);
const SUBSCHEMAS = new Set([
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'anyOf',
  'oneOf',
  'allOf',
]);

/**
 * @param {unknown} schema
 * @returns {unknown}
 */
function withoutEditorKeywords(schema) {
  if (Array.isArray(schema)) return schema.map(withoutEditorKeywords);
  if (typeof schema !== 'object' || schema === null) return schema;
  /** @type {Record<string, unknown>} */
  const kept = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (EDITOR_ONLY.has(keyword)) continue;
    kept[keyword] = SUBSCHEMAS.has(keyword)
      ? withoutEditorKeywords(value)
      : SCHEMA_MAPS.has(keyword) && typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutEditorKeywords(sub)]))
        : value;
  }
  return kept;
}

/**
 * `"closed": true` marks an object whose unknown properties the save refuses (with a "did you mean"). It is not
 * `additionalProperties: false` in schemas/ because VS Code's JSON support reads the same schemas and would then flag
 * every field a service returns beyond the spec (an `updated_at`) on documents the user did not touch; the save
 * excuses such fields as untouched. VS Code ignores the unknown keyword; here it expands into the object's properties
 * and additionalProperties: false.
 * @type {import('ajv').MacroKeywordDefinition}
 */
const CLOSED = {
  keyword: 'closed',
  macro: (closed, parentSchema) =>
    closed === true
      ? {
          properties: Object.fromEntries(Object.keys(parentSchema.properties ?? {}).map((key) => [key, true])),
          additionalProperties: false,
        }
      : true,
};

/**
 * @param {string} schemaDir
 * @param {string} outFile
 */
export function compileValidators(schemaDir, outFile) {
  /** @param {string} name */
  const load = (name) =>
    /** @type {import('ajv').AnySchemaObject} */ (
      withoutEditorKeywords(JSON.parse(readFileSync(path.join(schemaDir, `${name}.schema.json`), 'utf8')))
    );
  // strict: false lets VS Code's keywords and enumNames pass; verbose gives each error the schema and data it names;
  // without inlineRefs the function definition's checks are one function, not a copy in each schema that refers to it.
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    verbose: true,
    // validation.ts words every problem itself, from the keyword and its parameters: ajv's texts would be 7 KB unread.
    messages: false,
    inlineRefs: false,
    code: { source: true, esm: true },
  });
  ajv.addKeyword(CLOSED).addSchema(load('function_definition'));
  for (const [name, file] of Object.entries(SCHEMAS)) ajv.addSchema(load(file), name);
  const code = unreadFieldsOut(
    standaloneCode(ajv, Object.fromEntries(Object.keys(SCHEMAS).map((name) => [name, name]))),
  );
  const names = Object.keys(SCHEMAS).join(', ');
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(
    outFile,
    [
      "// @ts-nocheck -- ajv's generated code; its one typed export is `validators` at the end.",
      '// Generated by scripts/compile-validators.mjs from schemas/ on every build; do not edit.',
      "import type { ValidateFunction } from 'ajv';",
      code,
      // Keyed by its own names, not validation.ts's SchemaName: importing that would make the two import each other.
      `export const validators: Readonly<Record<${Object.keys(SCHEMAS)
        .map((name) => `'${name}'`)
        .join(' | ')}, ValidateFunction>> = { ${names} };`,
      '',
    ].join('\n'),
  );
}

// Run on its own (`npm run typecheck`, `npm run compile`), it writes the validators tsc needs to find.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  compileValidators(path.join(root, 'schemas'), path.join(root, 'src/core/generated/validators.ts'));
}
