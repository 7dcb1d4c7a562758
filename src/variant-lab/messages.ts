/**
 * What the variant lab's page (media/variant-lab.js) and the extension say to each other. The page shows the
 * service's and the AI's text, so the extension trusts nothing it says: a message is taken only in a known shape.
 */
import type { LabView } from './view';

/** `seq` counts the tables sent, so that the page's "drawn" says which it drew. */
export type HostMessage = { type: 'show'; seq: number; view: LabView };

export type PageMessage =
  | { type: 'ready' }
  /** The table is on the screen: what `convai.showVariantLab` waits for before it answers. */
  | { type: 'drawn'; seq: number }
  /** A cell: the case (row) and the version (column) whose run to open. */
  | { type: 'open'; row: number; column: number }
  /** A variant's column's Apply. */
  | { type: 'apply'; column: number };

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

export function parsePageMessage(message: unknown): PageMessage | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'drawn':
      return isIndex(m.seq) ? { type: 'drawn', seq: m.seq } : undefined;
    case 'open':
      return isIndex(m.row) && isIndex(m.column) ? { type: 'open', row: m.row, column: m.column } : undefined;
    case 'apply':
      return isIndex(m.column) ? { type: 'apply', column: m.column } : undefined;
    default:
      return undefined;
  }
}
