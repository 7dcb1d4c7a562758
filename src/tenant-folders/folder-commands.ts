import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import type { FolderEvents } from './folder-events';
import type { PlanView } from './plan-view';

/** What the tenant folder commands share: the services they use and the one plan preview. */
export interface FolderCommandServices {
  log: Log;
  connections: Connections;
  changes: Changes;
  listings: ListingCache;
  events: FolderEvents;
  view: PlanView;
}
