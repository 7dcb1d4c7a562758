// The flow map on the bench's tenant of 1,000 resources (test/service/sample-data.ts, `mapTenant`), pulled into a
// folder by the command-line tool: `convai map --format json` of that folder beside reading and parsing its files
// (floor-read.mjs), and the map page (dist/webview/flow-map.js) laying out and drawing that map in headless Chromium,
// timed in the page from the map's message to its "drawn", beside a page that draws nothing (floor-map-page.js).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import type { FlowMap } from '../../src/core/flow-map/model';
import type { HostMessage, MapView } from '../../src/flow-map/messages';
import { mapPage } from '../../src/flow-map/page';
import { mapView } from '../../src/flow-map/view';
import { startLocalService } from '../harness/local-service';
import { repoRoot } from '../harness/paths';
import { MAP_TENANT } from '../service/sample-data';
import { pair, runNode, succeeded, tenantId } from './folders';
import type { Pair } from './protocol';

/** Pairs of the model row, after one warm-up of each side, as the folder rows. */
const MODEL_ROUNDS = 7;
/** Pairs of the drawing row: each sample a fresh browser context, so every layout is a first (cold) one, as users wait for. */
const DRAW_ROUNDS = 5;
export const MAP_RESOURCES = 1_000;

const cli = path.join(repoRoot, 'dist', 'cli.js');
const floorRead = path.join(repoRoot, 'test', 'bench', 'floor-read.mjs');
/** Where the bench's pages come from: a made-up origin that Playwright answers, as a webview's resource origin does. */
const ORIGIN = 'http://flow-map.bench';
const assets: Readonly<Record<string, { file: string; type: string }>> = {
  '/flow-map.js': { file: path.join(repoRoot, 'dist', 'webview', 'flow-map.js'), type: 'text/javascript' },
  '/floor.js': { file: path.join(repoRoot, 'test', 'bench', 'floor-map-page.js'), type: 'text/javascript' },
  '/flow-map.css': { file: path.join(repoRoot, 'media', 'flow-map.css'), type: 'text/css' },
};

export interface FlowMapSamples {
  model: Pair[];
  draw: Pair[];
}

/** What the page's stub of `acquireVsCodeApi` keeps: the page's messages, and when "drawn" came. */
interface BenchWindow {
  benchSaid: Array<{ type: string; nodes?: number }>;
  benchShow(message: HostMessage): Promise<number>;
}

/**
 * Installed before the page's script: `acquireVsCodeApi` as a webview has it, and `benchShow`, which posts a map as
 * the panel does and resolves with the milliseconds until the page says it drew it.
 */
const webviewStub = `
window.benchSaid = [];
let drawn;
window.acquireVsCodeApi = () => ({ postMessage(message) { window.benchSaid.push(message); if (message.type === 'drawn') drawn?.(performance.now()); } });
window.benchShow = (message) => new Promise((resolve) => {
  const posted = performance.now();
  drawn = (at) => resolve(at - posted);
  window.postMessage(message, '*');
});`;

async function drawOnce(browser: Browser, script: '/flow-map.js' | '/floor.js', view: MapView): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const nonce = randomBytes(16).toString('base64');
    await page.route(`${ORIGIN}/**`, (route) => {
      const { pathname } = new URL(route.request().url());
      const asset = assets[pathname];
      if (asset) return route.fulfill({ body: fs.readFileSync(asset.file), contentType: asset.type });
      return route.fulfill({
        body: mapPage({
          nonce,
          cspSource: ORIGIN,
          scriptUri: `${ORIGIN}${script}`,
          styleUri: `${ORIGIN}/flow-map.css`,
        }),
        contentType: 'text/html',
      });
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(webviewStub);
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => (globalThis as unknown as BenchWindow).benchSaid.some((m) => m.type === 'ready'));
    const ms = await page.evaluate((message) => (globalThis as unknown as BenchWindow).benchShow(message), {
      type: 'show',
      seq: 1,
      view,
    } as HostMessage);
    if (errors.length > 0) throw new Error(`the map page (${script}) failed: ${errors[0]}`);
    if (script === '/flow-map.js') {
      const drawnNodes = await page.locator('svg#map g.node[role="button"]').count();
      if (drawnNodes !== view.nodes.length)
        throw new Error(`the map page drew ${drawnNodes} of the map's ${view.nodes.length} resources`);
    }
    return ms;
  } finally {
    await context.close();
  }
}

/** The folder's map as `convai map --format json` prints it, checked to be the tenant's whole map. */
async function modelOf(folder: string, token: string): Promise<FlowMap> {
  const run = await runNode([cli, 'map', '--format', 'json', folder], token);
  succeeded('map', run);
  const map = JSON.parse(run.stdout) as FlowMap;
  if (map.nodes.length !== MAP_RESOURCES)
    throw new Error(`convai map of ${folder} gave ${map.nodes.length} resources, not the tenant's ${MAP_RESOURCES}`);
  return map;
}

export async function measureFlowMap(): Promise<FlowMapSamples> {
  for (const { file } of Object.values(assets))
    if (!fs.existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} is missing: the build did not run`);
  const service = await startLocalService({ mapTenant: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-bench-map-'));
  const token = service.adminToken;
  let browser: Browser | undefined;
  try {
    const folder = path.join(scratch, 'map-tenant');
    succeeded(
      'pull',
      await runNode(
        [cli, 'pull', '--url', service.url, '--tenant', String(await tenantId(service, MAP_TENANT)), folder],
        token,
      ),
    );
    const view = mapView(await modelOf(folder, token), MAP_TENANT);
    succeeded('floor-read.mjs', await runNode([floorRead, folder], token));
    const model: Pair[] = [];
    for (let round = 0; round < MODEL_ROUNDS; round++) {
      model.push(
        await pair(
          round,
          async () => succeeded('map', await runNode([cli, 'map', '--format', 'json', folder], token)),
          async () => succeeded('floor-read.mjs', await runNode([floorRead, folder], token)),
        ),
      );
    }
    console.log(`map model: ${model.map((p) => `${p.candidate.toFixed(0)} vs ${p.floor.toFixed(0)} ms`).join(', ')}`);

    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    const live = browser;
    await drawOnce(live, '/flow-map.js', view);
    const draw: Pair[] = [];
    for (let round = 0; round < DRAW_ROUNDS; round++) {
      const sample = await pair(
        round,
        () => drawOnce(live, '/flow-map.js', view),
        () => drawOnce(live, '/floor.js', view),
      );
      console.log(
        `map drawing ${round + 1} of ${DRAW_ROUNDS}: ${sample.candidate.toFixed(0)} ms, a page drawing nothing ${sample.floor.toFixed(0)} ms`,
      );
      draw.push(sample);
    }
    return { model, draw };
  } finally {
    await browser?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
    await service.close();
  }
}
