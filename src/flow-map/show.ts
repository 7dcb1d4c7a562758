/**
 * `convai.showFlowMap`: reads the map a call names, answers with the model
 * once the panel drew it, and keeps the map on show following its source.
 */
import * as vscode from 'vscode';
import { openTitled } from '../documents/open-titled';
import { SCHEME } from '../core/uri';
import { kindOfSegment } from '../core/resources';
import { type Coverage, coverageOf } from '../core/flow-map/coverage';
import type { FlowMap } from '../core/flow-map/model';
import { mermaidFlowMap } from '../core/flow-map/mermaid';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { ConvaiFileSystem } from '../documents/filesystem';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import type { SuiteRuns } from '../shared/suite-runs';
import { followMap, TenantDetails } from './follow';
import type { FlowMapPanel } from './panel';
import { type Read, readMap } from './read';
import type { Request } from './request';
import { ofService } from './tenant-tests';
import { mapView } from './view';

export interface MapServices {
  log: Log;
  connections: Connections;
  listings: ListingCache;
  files: ConvaiFileSystem;
  changes: Changes;
  suiteRuns: SuiteRuns;
}

/** What the workspace's suites reached of the map's tenant; undefined when none of them ran (contract: `coverage`). */
function coverageNow({ suiteRuns, connections }: MapServices, read: Read): Coverage | undefined {
  const runs = suiteRuns.of(read.tenant.tenantId, ofService(connections, read.tenant));
  return runs.length === 0 ? undefined : coverageOf(runs, read.map.nodes);
}

export async function showFlowMap(
  panel: FlowMapPanel,
  services: MapServices,
  request: Request,
  progress: 'quiet' | 'notification',
): Promise<FlowMap & { coverage?: Coverage }> {
  const { source } = request;
  const details = new TenantDetails();
  let read = await readMap(services, source, details, request.focus, progress);
  const actions = {
    open: async (node: string): Promise<void> => {
      const uri = read.open(node);
      if (!uri) return;
      // Beside the map, which stays in view to pick the next one.
      const beside = { preview: true, viewColumn: vscode.ViewColumn.Beside };
      const shown = read.map.nodes.find((n) => n.id === node);
      // A pulled folder's file is named already; a service's document by its id alone.
      if (shown && uri.scheme === SCHEME) await openTitled(uri, kindOfSegment(shown.segment).label, shown.name, beside);
      else await vscode.window.showTextDocument(uri, beside);
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
      await panel.show(mapView(read.map, read.title, undefined, coverageNow(services, read)), actions, {
        follows: true,
      });
    } catch (error) {
      // The map on show stays as it was; the next change tries again.
      logger.warn(`The flow map could not be read again: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const coverage = coverageNow(services, read);
  const drawn = panel.show(mapView(read.map, read.title, read.focus, coverage), actions);
  // A suite's run changes only the coverage: the map is drawn again from what was read.
  const tested = services.suiteRuns.onDidRecord((ran) => {
    if (ran.tenantId === read.tenant.tenantId && ofService(services.connections, read.tenant)(ran.connection))
      void panel.show(mapView(read.map, read.title, undefined, coverageNow(services, read)), actions, {
        follows: true,
      });
  });
  panel.follow(vscode.Disposable.from(followMap(source, details, services, redraw), tested));
  await drawn;
  const { nodes, edges, problems } = read.map;
  return { nodes, edges, problems, ...(coverage ? { coverage } : {}) };
}
