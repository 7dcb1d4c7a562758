/**
 * The one inputs form the results panel may show: what it shows, and the run it stands for once it is answered.
 * A form that is replaced or closed runs nothing, so whoever waits on it is never left hanging.
 */
import { randomUUID } from 'node:crypto';
import type { RunRecord } from './history';
import type { JsonObject } from './json';
import { inputsOf, type InputsDraft, type ServiceOperation } from './run-inputs';
import { messageOf } from './text';

/** What the panel renders of the open form. */
export interface InputsForm {
  /** Names this form, so that an answer from a page of an earlier form is not taken for this one. */
  id: string;
  operation: ServiceOperation;
  draft: InputsDraft;
  /** Earlier values of the text field, offered while typing it. */
  suggestions: readonly string[];
  /** Why the extension refused what the page sent. */
  problem?: string;
  /** The turns so far, oldest first, of the conversation this run continues (Continue Conversation). */
  continues?: readonly RunRecord[];
}

/** Where the form shows: the resource whose runs the panel shows with it. */
export interface FormPlace {
  resource: string;
  label: string;
}

interface Open extends FormPlace {
  form: InputsForm;
  resolve(inputs: JsonObject | undefined): void;
}

export class InputsForms {
  private open: Open | undefined;

  /** The open form, when it belongs with this resource's runs. */
  formFor(resource: string): InputsForm | undefined {
    return this.open?.resource === resource ? this.open.form : undefined;
  }

  get place(): FormPlace | undefined {
    return this.open && { resource: this.open.resource, label: this.open.label };
  }

  /** Opens a form in place of any other; resolves with the inputs it is answered with, or undefined once closed. */
  ask(place: FormPlace, form: Omit<InputsForm, 'id' | 'problem'>): Promise<JsonObject | undefined> {
    this.close();
    return new Promise((resolve) => {
      this.open = { ...place, form: { ...form, id: randomUUID() }, resolve };
    });
  }

  /**
   * The page's answer to form `formId`, checked again here (the page's own check proves nothing): it settles the
   * form, or the form stays open showing the problem. Resolves with where the form showed, to render it again;
   * undefined (nothing changed) for an answer to another form.
   */
  answer(formId: string, draft: InputsDraft): FormPlace | undefined {
    const open = this.open;
    if (open?.form.id !== formId) return undefined;
    try {
      const inputs = inputsOf(open.form.operation, draft);
      this.open = undefined;
      open.resolve(inputs);
    } catch (error) {
      open.form = { ...open.form, draft, problem: messageOf(error) };
    }
    return { resource: open.resource, label: open.label };
  }

  /** Closes the open form (only form `formId`, when given): it runs nothing. Resolves with where it showed. */
  close(formId?: string): FormPlace | undefined {
    const open = this.open;
    if (!open || (formId !== undefined && open.form.id !== formId)) return undefined;
    this.open = undefined;
    open.resolve(undefined);
    return { resource: open.resource, label: open.label };
  }
}
