/**
 * The rules of a request definition (service-api.md section 2.9) that a JSON
 * Schema cannot say, and the schema's own messages in words about the file:
 * each finding names its path and where in the text it sits.
 */
import { isMalformedReference, parseApiKey } from './api-key';
import { isJsonObject } from './json';
import {
  API_KEY_PLACEHOLDER,
  BODYLESS,
  HEADER_BREAK,
  HEADER_NAME,
  type PlaceholderToken,
  scanPlaceholders,
} from './request-builder';
import { validateDocument } from './validation';

export const PROPERTIES_PATH = ['function_definition', 'parameters', 'properties'];

export type Path = Array<string | number>;

/**
 * Where a finding sits: the value at its path, the property key, the owner of
 * a missing property, or a range of the decoded string at its path.
 */
export type Spot = 'value' | 'key' | 'owner' | { start: number; end: number };

/** Whether a finding keeps the definition from being used (an error) or only advises (a warning). */
export type Severity = 'error' | 'warning';

export interface Finding {
  path: Path;
  spot: Spot;
  message: string;
  severity: Severity;
  /** Whether the message lacks the field's name, which a problem without a position must add. */
  bare: boolean;
}

export function findingsOf(value: unknown): Finding[] {
  return [...schemaFindings(value), ...(isJsonObject(value) ? ruleFindings(value) : [])];
}

const RULE_5 = 'rule 5: a function definition is required even when the request takes no parameters';
const RULE_7 = 'rule 7: the name and description guide the AI in deciding when to call the function';

/**
 * Messages that say more than the schema's, by path and keyword (`*`: any keyword):
 * the rule behind a requirement, and one message for the two ways a method may be written.
 */
const SCHEMA_MESSAGES: Record<string, Record<string, string>> = {
  url: { required: 'url: required, give the endpoint URL' },
  method: {
    required: 'method: required, give the HTTP method, such as GET or POST',
    '*': 'method: must be an HTTP method: GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS or another token of letters and hyphens',
  },
  function_definition: { required: `function_definition: required (${RULE_5})` },
  'function_definition/type': { required: 'function_definition.type: required, give "function"' },
  'function_definition/name': {
    required: `function_definition.name: required (${RULE_7})`,
    '*': `function_definition.name: must be 1 to 64 letters, digits, underscores or hyphens (${RULE_7})`,
  },
  'function_definition/description': {
    required: `function_definition.description: required (${RULE_7})`,
    '*': `function_definition.description: must be a text that is not empty (${RULE_7})`,
  },
  'function_definition/parameters': {
    required:
      'function_definition.parameters: required (rule 5: give { "type": "object", "properties": {} } when the request takes no parameters)',
  },
  'function_definition/parameters/type': { required: 'function_definition.parameters.type: required, give "object"' },
  'function_definition/parameters/properties': {
    required:
      'function_definition.parameters.properties: required (rule 5: give an empty object {} when the request takes no parameters)',
  },
};

function schemaFindings(value: unknown): Finding[] {
  const findings = new Map<string, Finding>();
  for (const problem of validateDocument('apirequest', value)) {
    const messages = SCHEMA_MESSAGES[problem.path.join('/')];
    const required = problem.keyword === 'required';
    const message = (required ? messages?.required : messages?.['*']) ?? problem.message;
    const spot: Spot = required ? 'owner' : problem.keyword === 'additionalProperties' ? 'key' : 'value';
    // The branches of `method`'s anyOf each fail; they become one message.
    findings.set(`${JSON.stringify(problem.path)} ${message}`, {
      path: problem.path,
      spot,
      message,
      severity: 'error',
      bare: false,
    });
  }
  return [...findings.values()];
}

/** What the schema cannot check: placeholders against parameters, the API Key, and what a GET leaves unsent. */
function ruleFindings(doc: Record<string, unknown>): Finding[] {
  const parameters = record(record(doc.function_definition).parameters);
  const properties = isJsonObject(parameters.properties) ? parameters.properties : undefined;
  const required: unknown[] = Array.isArray(parameters.required) ? parameters.required : [];
  const findings: Finding[] = [];
  const add = (path: Path, spot: Spot, severity: Finding['severity'], message: string): void => {
    findings.push({ path, spot, severity, message, bare: true });
  };
  /** Parameter names that fill a placeholder, with the first placeholder of each. */
  const filled = new Map<string, string>();
  const isParameter = (name: string): boolean => properties !== undefined && Object.hasOwn(properties, name);

  const checkTokens = (path: Path, text: string, inHeader: boolean): void => {
    for (const token of scanPlaceholders(text)) {
      const spot = { start: token.start, end: token.end };
      const written = text.slice(token.start, token.end);
      if (token.fault) {
        add(path, spot, 'error', faultMessage(token, written));
      } else if (inHeader && token.name === API_KEY_PLACEHOLDER) {
        if (parseApiKey(doc.api_key).kind === 'none') {
          add(
            path,
            spot,
            'error',
            '{{api_key}} needs an API Key: set "api_key" (a literal, ${env:NAME} or ${secret:NAME})',
          );
        }
      } else if (properties === undefined) {
        // The schema already reports the missing properties; every placeholder would repeat it.
        continue;
      } else if (!isParameter(token.name)) {
        add(
          path,
          spot,
          'error',
          token.name === API_KEY_PLACEHOLDER
            ? '{{api_key}} in the URL names no parameter of the function definition; the API Key fills headers only (rule 2): move it into a header, or add "api_key" to parameters.properties'
            : `{{${token.name}}} names no parameter of the function definition: add "${token.name}" to parameters.properties, or fix the name`,
        );
      } else {
        if (!filled.has(token.name)) filled.set(token.name, written);
        if (token.name === API_KEY_PLACEHOLDER) {
          add(
            path,
            spot,
            'warning',
            '{{api_key}} in the URL is the function argument "api_key", not the API Key, which fills headers only (rule 2)',
          );
        }
      }
    }
  };

  if (typeof doc.url === 'string') checkTokens(['url'], doc.url, false);
  let keyInHeaders = false;
  for (const [name, value] of Object.entries(record(doc.headers))) {
    if (!HEADER_NAME.test(name)) {
      add(
        ['headers', name],
        'key',
        'error',
        `"${name}" is not a valid header name: use letters, digits and - (no spaces or colons)`,
      );
    }
    if (typeof value !== 'string') continue;
    if (HEADER_BREAK.test(value)) {
      add(['headers', name], 'value', 'error', 'a header value cannot hold a line break');
    }
    keyInHeaders ||= scanPlaceholders(value).some((t) => !t.fault && t.name === API_KEY_PLACEHOLDER);
    checkTokens(['headers', name], value, true);
  }

  findings.push(...apiKeyFindings(doc.api_key, keyInHeaders));
  if (properties !== undefined) {
    required.forEach((name, index) => {
      if (typeof name === 'string' && !isParameter(name)) {
        add(
          [...PROPERTIES_PATH.slice(0, 2), 'required', index],
          'value',
          'error',
          `"${name}" is required but not defined in parameters.properties`,
        );
      }
    });
    for (const [name, written] of filled) {
      if (!required.includes(name)) {
        add(
          [...PROPERTIES_PATH, name],
          'key',
          'warning',
          `"${name}" fills ${written} but is not in parameters.required: a call without it cannot be built; add "${name}" to parameters.required`,
        );
      }
    }
  }
  findings.push(...fixedParameterFindings(doc, properties, filled));
  return findings;
}

function faultMessage(token: PlaceholderToken, written: string): string {
  switch (token.fault) {
    case 'empty':
      return `${written} has no name: write the parameter's name between the braces, such as {{city}}`;
    case 'unclosed':
      return `${written} is not closed: end the placeholder with }}`;
    default:
      return `${written} is not a valid placeholder: a name starts with a letter or _ and holds only letters, digits, _ . and -`;
  }
}

function apiKeyFindings(apiKey: unknown, keyInHeaders: boolean): Finding[] {
  const at = (severity: Finding['severity'], message: string): Finding[] => [
    { path: ['api_key'], spot: 'value', severity, message, bare: true },
  ];
  if (isMalformedReference(apiKey)) {
    return at(
      'error',
      `${String(apiKey)} is not a valid reference, and would be sent as the key itself: write \${env:NAME} or \${secret:NAME}, NAME starting with a letter or _ and holding letters, digits, _ . -`,
    );
  }
  if (parseApiKey(apiKey).kind !== 'none' && !keyInHeaders) {
    return at(
      'warning',
      'the API Key is never sent: no header holds {{api_key}} (rule 2); add one, such as "Authorization": "Bearer {{api_key}}"',
    );
  }
  return [];
}

/**
 * Rule 6 and the builder's choice: a GET or HEAD sends fixed parameters only in
 * the query string, and only when some argument fills no placeholder.
 */
function fixedParameterFindings(
  doc: Record<string, unknown>,
  properties: Record<string, unknown> | undefined,
  filled: Map<string, string>,
): Finding[] {
  const method = typeof doc.method === 'string' ? doc.method.trim().toUpperCase() : '';
  if (!BODYLESS.has(method) || Object.keys(record(doc.fixed_parameters)).length === 0) {
    return [];
  }
  const allFill = properties !== undefined && Object.keys(properties).every((name) => filled.has(name));
  const message = allFill
    ? `fixed parameters are never sent: a ${method} sends the URL and headers only (rule 6), and every parameter fills a placeholder, so no call has arguments left over for a query string; use POST, or write the values into the URL`
    : `fixed parameters are sent only in the query string, and only when a call has an argument that fills no placeholder; otherwise a ${method} sends the URL and headers only (rule 6)`;
  return [{ path: ['fixed_parameters'], spot: 'key', severity: 'warning', message, bare: true }];
}

/** An object's properties, or none for anything else: the rules read what is there and leave the rest to the schema. */
export function record(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? value : {};
}
