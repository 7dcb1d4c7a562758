/**
 * The subcommands, in the order help lists them: a new one is one more entry. Each is loaded when it runs (or help
 * describes it), so a command starts with its own code alone: `plan` of a large folder does not evaluate the prompt
 * tests' modules, most of the tool, and node's start is most of what a plan of an unchanged folder costs.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a require, not an import: an import loads with this module */
import type { Command } from './command';

export interface CommandEntry {
  name: string;
  load(): Command;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'pull', load: () => (require('./pull') as typeof import('./pull')).pullCommand },
  { name: 'plan', load: () => (require('./plan') as typeof import('./plan')).planCommand },
  { name: 'push', load: () => (require('./push') as typeof import('./push')).pushCommand },
  { name: 'drift', load: () => (require('./drift') as typeof import('./drift')).driftCommand },
  { name: 'map', load: () => (require('./map') as typeof import('./map')).mapCommand },
  { name: 'test', load: () => (require('./test') as typeof import('./test')).testCommand },
  { name: 'trials', load: () => (require('./trials') as typeof import('./trials')).trialsCommand },
];
