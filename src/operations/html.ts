/**
 * Markup for the results panel that cannot be made from the text it shows. Everything shown comes from the
 * service, the AI, the user's inputs or the history in storage, so it is text: the `html` template escapes every
 * value it is given, and only fragments built by `html` itself pass through. Pure (no `vscode`).
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for element content and for quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Markup built by `html`: the only thing inserted without escaping. */
export class Html {
  constructor(readonly markup: string) {}
}

type Part = Html | string | number | false | undefined | readonly Part[];

function markupOf(part: Part): string {
  if (part instanceof Html) return part.markup;
  if (part === false || part === undefined) return '';
  if (typeof part === 'string' || typeof part === 'number') return escapeHtml(String(part));
  return part.map(markupOf).join('');
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  return new Html(strings.reduce((out, literal, i) => out + markupOf(parts[i - 1]) + literal));
}

export interface ButtonOptions {
  primary?: boolean;
  disabled?: boolean;
  ariaLabel?: string;
}

/** A button the page's script acts on by its `data-*` attributes (see media/results.js). */
export function button(label: string, data: Record<string, string>, options: ButtonOptions = {}): Html {
  const attributes = Object.entries(data).map(([name, value]) => html` data-${name}="${value}"`);
  return html`<button type="button" class="${options.primary ? 'primary' : 'secondary'}"${attributes}${options.ariaLabel !== undefined && html` aria-label="${options.ariaLabel}"`}${options.disabled && html` disabled`}>${label}</button>`;
}

/** Local date and time, to the second; the stored text when it is not a date. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** A moment as a `<time>` element, shown in local time. */
export function time(iso: string): Html {
  return html`<time datetime="${iso}">${formatTime(iso)}</time>`;
}
