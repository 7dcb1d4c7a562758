import type { Connections } from '../../connections/registry';
import type { ListingCache } from '../../core/listing-cache';
import type { Changes } from '../../documents/changes';
import type { Logger } from '../../core/logger';
import type { ChangeDecorations } from './change-states';
import type { ReadOnlyFiles } from './read-only-files';

/** What every change list of the Source Control view needs. */
export interface ScmDeps {
  connections: Connections;
  /** The shared listings: the tenant pickers read a connection's tenants from it. */
  listings: ListingCache;
  /** The change service: a promotion and Take Service Version report what they changed. */
  changes: Changes;
  files: ReadOnlyFiles;
  decorations: ChangeDecorations;
  log: Logger;
}
