/**
 * What marks a prompt as a trial copy (contract: "Trials"): its name, `[trial <tag>] <name>`, the only mark a copy
 * can carry through a service that stores nothing else of ours. Every listing that stands for the tenant (pull,
 * plan, drift, the tree, pickers, the flow map) leaves such prompts out by this one rule.
 */
import { randomBytes } from 'node:crypto';

const COPY_NAME = /^\[trial ([0-9a-f]{8})\] /;

/** A new run's tag: 8 lowercase hex characters, unique enough that two runs on one tenant never share one. */
export function newTrialTag(): string {
  return randomBytes(4).toString('hex');
}

export function trialCopyName(tag: string, name: string): string {
  return `[trial ${tag}] ${name}`;
}

/** The tag of a trial copy's name; undefined for any other name. */
export function trialTagOf(name: unknown): string | undefined {
  return typeof name === 'string' ? COPY_NAME.exec(name)?.[1] : undefined;
}

export function isTrialCopy(resource: { name?: unknown }): boolean {
  return trialTagOf(resource.name) !== undefined;
}
