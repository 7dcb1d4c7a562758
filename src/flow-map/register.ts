import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import type { SuiteRuns } from '../shared/suite-runs';
import type * as Opened from './opened';

/**
 * The flow map (contract: "Flow map"): a tenant's resources and the
 * references between them, drawn in a panel. Its code, its page's script and
 * the layout library load only when a map opens.
 */
export function register(
  context: vscode.ExtensionContext,
  {
    log,
    connections,
    listings,
    files,
    changes,
    suiteRuns,
  }: {
    log: Log;
    connections: Connections;
    listings: ListingCache;
    files: ConvaiFileSystem;
    changes: Changes;
    suiteRuns: SuiteRuns;
  },
): void {
  let panel: Opened.FlowMapPanel | undefined;
  const services = { log, connections, listings, files, changes, suiteRuns };
  const opened = (): { code: typeof Opened; panel: Opened.FlowMapPanel } => {
    // scripts/build.mjs keeps './opened' in dist/flow-map.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const code = require('./opened') as typeof Opened;
    if (!panel) context.subscriptions.push((panel = new code.FlowMapPanel(context.extensionUri, log)));
    return { code, panel };
  };
  context.subscriptions.push(
    registerCommand(log, COMMANDS.showFlowMap, {
      programmatic: async (args) => {
        const { code, panel } = opened();
        return code.showFlowMap(panel, services, code.programmaticRequest(args), 'quiet');
      },
      interactive: async (arg) => {
        const { code, panel } = opened();
        const request = await code.requestOf(arg, connections, listings);
        return request && code.showFlowMap(panel, services, request, 'notification');
      },
    }),
  );
}
