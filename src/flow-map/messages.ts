/**
 * What the flow map's page and the extension say to each other. Shared by
 * both sides: the page's bundle (`webview/main.ts`) compiles it for the
 * browser, so it imports nothing.
 */

/** A node as the page draws it: the model's node and the words the page shows for its kind. */
export interface ViewNode {
  id: string;
  segment: string;
  name: string;
  /** `AI Prompt`: the kind's label, shown under the name. */
  kind: string;
  /** A part the tenant's tests give a prompt (`test`, `opener`), and what it means, for the legend and the tooltip. */
  role?: { name: string; text: string };
}

export interface ViewEdge {
  from: string;
  to: string;
  kind: string;
}

/** A dangling reference, drawn as a red dashed edge to a node that stands for the missing resource. */
export interface ViewDangling {
  from: string;
  field: string;
  target: string;
}

/** One line of the problems list, and the node it is about, which a click centres. */
export interface ViewProblem {
  node: string;
  text: string;
}

export interface MapView {
  title: string;
  nodes: ViewNode[];
  edges: ViewEdge[];
  dangling: ViewDangling[];
  problems: ViewProblem[];
  /** A node to centre and mark once drawn (the prompt whose document the map was opened from). */
  focus?: string;
  /** What the workspace's suites of this tenant reached, when any ran: the contract's `coverage`. */
  coverage?: ViewCoverage;
}

export interface ViewCoverage {
  nodes: Record<string, 'passed' | 'failed' | 'untested'>;
  /** `<from> -> <to>`: the hand-overs conversations and simulated calls took. */
  edges: string[];
}

/** `seq` counts the maps sent, so that the page's "drawn" says which it drew. */
/** `keepView`: the same map read again after a change, drawn where the user left it. */
export type HostMessage = { type: 'show'; seq: number; view: MapView; keepView?: boolean };

export type PageMessage =
  | { type: 'ready' }
  /** The map is on the screen: what `convai.showFlowMap` waits for before it answers. */
  | { type: 'drawn'; seq: number; nodes: number }
  | { type: 'open'; node: string }
  | { type: 'exportSvg'; svg: string }
  | { type: 'copyMermaid' };

/** An SVG of 1,000 nodes is some 1 MB; anything far larger is not one the page made. */
const MAX_SVG = 32 * 1024 * 1024;

/** The page's message when it is one it may send, else undefined: the page shows service text, so the extension trusts nothing it says. */
export function parsePageMessage(message: unknown): PageMessage | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'copyMermaid':
      return { type: m.type };
    case 'drawn':
      return typeof m.seq === 'number' && typeof m.nodes === 'number'
        ? { type: 'drawn', seq: m.seq, nodes: m.nodes }
        : undefined;
    case 'open':
      return typeof m.node === 'string' ? { type: 'open', node: m.node } : undefined;
    case 'exportSvg':
      return typeof m.svg === 'string' && m.svg.length <= MAX_SVG ? { type: 'exportSvg', svg: m.svg } : undefined;
    default:
      return undefined;
  }
}
