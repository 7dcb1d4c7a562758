/**
 * `convai.showFlowMap`: reads the map a call names, answers with the model
 * once the panel drew it, and keeps the map on show following its source.
 */
import * as vscode from 'vscode';
import { isProgrammatic } from '../commands';
import type { FlowMap } from '../core/flow-map/model';
import { mermaidFlowMap } from '../core/flow-map/mermaid';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';
import type { Log } from '../log';
import { followMap, TenantDetails } from './follow';
import type { FlowMapPanel } from './panel';
import { readMap } from './read';
import { requestOf } from './request';
import { mapView } from './view';

export interface MapServices {
  log: Log;
  connections: Connections;
  listings: ListingCache;
  files: ConvaiFileSystem;
}

export async function showFlowMap(panel: FlowMapPanel, services: MapServices, arg: unknown): Promise<FlowMap | undefined> {
  const request = await requestOf(arg, services.connections, services.listings);
  if (!request) return undefined;
  const { source } = request;
  const details = new TenantDetails();
  let read = await readMap(services, source, details, request.focus, isProgrammatic(arg) ? 'quiet' : 'notification');
  const actions = {
    open: async (node: string): Promise<void> => {
      const uri = read.open(node);
      // Beside the map, which stays in view to pick the next one.
      if (uri) await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    },
    mermaid: (): string => mermaidFlowMap(read.map),
    svgFile: (): vscode.Uri | undefined => read.svgFile,
  };
  const logger = services.log.for('flow-map');
  const redraw = async (live: () => boolean): Promise<void> => {
    try {
      const again = await readMap(services, source, details, undefined, 'quiet');
      if (!live()) return;
      read = again;
      await panel.show(mapView(read.map, read.title), actions, { follows: true });
    } catch (error) {
      // The map on show stays as it was; the next change tries again.
      logger.warn(`The flow map could not be read again: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const drawn = panel.show(mapView(read.map, read.title, read.focus), actions);
  panel.follow(followMap(source, details, services, redraw));
  await drawn;
  const { nodes, edges, problems } = read.map;
  return { nodes, edges, problems };
}
