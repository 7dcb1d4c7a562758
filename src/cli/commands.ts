/** The subcommands, in the order help lists them: a new one is one more entry. */
import type { Command } from './command';
import { driftCommand } from './drift';
import { planCommand } from './plan';
import { pullCommand } from './pull';
import { pushCommand } from './push';
import { testCommand } from './test';

export const COMMANDS: readonly Command[] = [pullCommand, planCommand, pushCommand, driftCommand, testCommand];
