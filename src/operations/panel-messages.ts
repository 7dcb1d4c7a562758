/**
 * The messages the results page may send back, and the one check that lets
 * them in. Pure (no `vscode`), so it is tested in plain Node.
 */
import { MAX_INPUT_LENGTH } from '../core/run-inputs';
import { RUN_FIELDS, type RunField } from './run-fields';

/** What the page's buttons and its inputs form post; `parsePanelRequest` lets nothing else through. */
export type PanelRequest =
  | { type: 'ready' }
  | { type: 'cancel' }
  | { type: 'select'; runId: string }
  | { type: 'rerun'; runId: string }
  | { type: 'edit'; runId: string }
  | { type: 'copy'; runId: string; field: RunField }
  | { type: 'compare'; runIds: [string, string] }
  | { type: 'openPrompt'; runId: string }
  | { type: 'saveAsTestCase'; runId: string }
  | { type: 'continueConversation'; runId: string }
  | { type: 'saveAsConversationCase'; runId: string }
  | { type: 'runInputs'; formId: string; text: string; json: string }
  | { type: 'closeInputs'; formId: string };

const MAX_ID = 100;

/** A run's or a form's id. */
function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID;
}

/** What a person may type in a form's field. */
function isInputText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_INPUT_LENGTH;
}

function isRunField(value: unknown): value is RunField {
  return typeof value === 'string' && RUN_FIELDS.has(value);
}

/**
 * The request a message from the page stands for, or undefined. The page is
 * the least trusted part of the extension (it shows service text), so a
 * message must match one shape exactly: no unknown type, no extra keys.
 */
export function parsePanelRequest(message: unknown): PanelRequest | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  const keys = Object.keys(m);
  const only = (...allowed: string[]): boolean => keys.every((key) => allowed.includes(key));
  switch (m.type) {
    case 'ready':
    case 'cancel':
      return only('type') ? { type: m.type } : undefined;
    case 'select':
    case 'rerun':
    case 'edit':
    case 'openPrompt':
    case 'saveAsTestCase':
    case 'continueConversation':
    case 'saveAsConversationCase':
      return only('type', 'runId') && isId(m.runId) ? { type: m.type, runId: m.runId } : undefined;
    case 'copy':
      return only('type', 'runId', 'field') && isId(m.runId) && isRunField(m.field)
        ? { type: 'copy', runId: m.runId, field: m.field }
        : undefined;
    case 'compare': {
      if (!only('type', 'runIds') || !Array.isArray(m.runIds) || m.runIds.length !== 2) return undefined;
      const [a, b] = m.runIds as unknown[];
      return isId(a) && isId(b) && a !== b ? { type: 'compare', runIds: [a, b] } : undefined;
    }
    case 'runInputs':
      return only('type', 'formId', 'text', 'json') && isId(m.formId) && isInputText(m.text) && isInputText(m.json)
        ? { type: 'runInputs', formId: m.formId, text: m.text, json: m.json }
        : undefined;
    case 'closeInputs':
      return only('type', 'formId') && isId(m.formId) ? { type: 'closeInputs', formId: m.formId } : undefined;
    default:
      return undefined;
  }
}
