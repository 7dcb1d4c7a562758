import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves true once `ready()` holds, false after `timeoutMs` or when `signal` aborts. Checks whenever something
 * changes in `folder` rather than polling; the folder must exist.
 */
export function waitInFolder(
  folder: string,
  ready: () => boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: boolean | Error): void => {
      if (settled) return;
      settled = true;
      watcher.close();
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = (): void => settle(false);
    const check = (): void => {
      try {
        if (ready()) settle(true);
      } catch (error) {
        settle(error instanceof Error ? error : new Error(String(error)));
      }
    };
    // Some platforms omit the changed name, so any event in the folder triggers a check.
    const watcher = fs.watch(folder, check);
    watcher.on('error', (error) => settle(error));
    const timer = setTimeout(() => settle(false), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    // It may hold already, before the watcher started.
    if (signal?.aborted) settle(false);
    else check();
  });
}

/** Resolves true once `file` exists, false after `timeoutMs` or when `signal` aborts; its folder must exist. */
export function waitForFile(file: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return waitInFolder(path.dirname(file), () => fs.existsSync(file), timeoutMs, signal);
}

/**
 * Polls `condition` until it holds; for state VS Code offers no event for (such as an extension's activation).
 * Rejects with `what` in the message after `timeoutMs`.
 */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(intervalMs);
  }
}
