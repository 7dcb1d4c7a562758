/**
 * The HTTP library (undici), loaded at the first request rather than with the
 * extension: it is most of the code the extension ships, and nothing before a
 * first request needs it. The extension's bundle maps `undici` to a file of
 * its own (dist/undici.js, the parts used); plain Node gets the package.
 */
import type * as Undici from 'undici';

export type { Dispatcher } from 'undici';

type HttpLibrary = Pick<typeof Undici, 'Agent' | 'ProxyAgent' | 'request'>;

let library: HttpLibrary | undefined;

export function http(): HttpLibrary {
  // A require, not an import: an import would load it with the module that names it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  library ??= require('undici') as HttpLibrary;
  return library;
}
