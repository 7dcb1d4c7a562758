// The host memory row: one VS Code window on a service holding the large tenant (contract "Large tenants"). The entry
// (host/memory-entry.ts) takes the extension host's memory and opens 50 prompts; the harness then browses as a
// person does, in the ConvAI view: it expands the tenant and every kind (each kind's first level shown, then
// collapsed out of the way of the next), and runs Go to Resource for a prompt; the entry then takes the memory again.
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';
import { kindOfSegment, TENANT_SEGMENTS } from '../../src/core/resources';
import { LARGE_TENANT } from '../service/large-tenant';
import type { RunningService } from '../service/server';
import { choose, collapse, expand, openConvAiView, runCommand, treeRow } from '../ui/tree-view';
import {
  benchConnection,
  browsedFile,
  type MemoryReady,
  type MemoryReport,
  type MemorySample,
  readyFile,
  samplesFile,
} from './protocol';
import { inBenchWindow } from './session';

/** A kind's first level of 50,000 prompts, listed and sent to the workbench before the paging of issue 30. */
const kindShowsMs = 5 * 60_000;
/** Go to Resource loads every kind of every tenant of the connection before its list opens. */
const goToLoadsMs = 5 * 60_000;

function readJson<T extends { ok: boolean }>(file: string): T {
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  if (typeof report.ok !== 'boolean') throw new Error(`${file} is not a bench report`);
  return report;
}

async function expandEveryKind(page: Page): Promise<void> {
  const tree = await openConvAiView(page);
  await expand(treeRow(tree, benchConnection, 1));
  await expand(treeRow(tree, LARGE_TENANT, 2));
  for (const segment of TENANT_SEGMENTS) {
    const kind = treeRow(tree, kindOfSegment(segment).pluralLabel, 3);
    await expand(kind);
    await tree.locator('.monaco-list-row[aria-level="4"]').first().waitFor({ timeout: kindShowsMs });
    await collapse(kind);
  }
}

async function goToResource(page: Page, find: { id: number; name: string }): Promise<void> {
  await runCommand(page, 'ConvAI: Go to Resource…');
  await page.locator('.quick-input-widget input[placeholder^="Go to a resource"]').waitFor({ timeout: goToLoadsMs });
  await choose(page, find.name);
  await page.locator(`.tabs-container .tab.active[data-resource-name="${find.id}.json"]`).waitFor();
}

/** The extension host's memory before and after browsing the large tenant. */
export function measureHostMemory(options: {
  codeServerBin: string;
  service: RunningService;
}): Promise<{ before: MemorySample; after: MemorySample }> {
  return inBenchWindow({ ...options, entry: 'memory-entry.js', env: {} }, async ({ workbench, dir, entryWrote }) => {
    await entryWrote(readyFile(dir));
    const ready = readJson<MemoryReady>(readyFile(dir));
    if (!ready.ok) throw new Error(`in the extension host: ${ready.error}`);
    await expandEveryKind(workbench.page);
    await goToResource(workbench.page, ready.find);
    fs.writeFileSync(browsedFile(dir), '');
    await entryWrote(samplesFile(dir));
    const report = readJson<MemoryReport>(samplesFile(dir));
    if (!report.ok) throw new Error(`in the extension host: ${report.error}`);
    return { before: report.before, after: report.after };
  });
}
