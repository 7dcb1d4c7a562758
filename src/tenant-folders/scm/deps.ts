import type { Connections } from '../../connections/registry';
import type { Logger } from '../../core/logger';
import type { ChangeDecorations } from './change-states';
import type { ReadOnlyFiles } from './read-only-files';

/** What every change list of the Source Control view needs. */
export interface ScmDeps {
  connections: Connections;
  files: ReadOnlyFiles;
  decorations: ChangeDecorations;
  log: Logger;
}
