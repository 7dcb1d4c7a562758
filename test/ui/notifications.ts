import type { Locator, Page } from 'playwright-core';
import { runCommand } from './tree-view';

/**
 * A notification as a toast or, when the workbench keeps it from showing as one, in the notification center, where
 * its buttons are the same. The workbench shows no toast for a notification that comes within a moment of three
 * others (its spam protection: a quick pull's progress, say), nor after toasts were hidden with Escape earlier in the
 * run; either way the notification is listed in the center.
 */
export async function notification(page: Page, hasText: string | RegExp): Promise<Locator> {
  const shown = page.locator('.notifications-toasts .notification-toast', { hasText });
  const listed = page.locator('.notifications-center .notification-list-item', { hasText });
  const either = shown.or(listed);
  if (
    await either
      .first()
      .waitFor({ timeout: 8_000 })
      .then(
        () => true,
        () => false,
      )
  )
    return either.first();
  await runCommand(page, 'Notifications: Show Notifications');
  await listed.first().waitFor();
  return listed.first();
}
