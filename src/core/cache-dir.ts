/**
 * The folder of what the tools keep between runs and can always make again (folders' file stat caches): `CONVAI_CACHE_DIR`,
 * else `convai-config` in the user's cache folder. Removing it costs one slower run.
 */
import os from 'node:os';
import path from 'node:path';

export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CONVAI_CACHE_DIR) return env.CONVAI_CACHE_DIR;
  const base =
    process.platform === 'win32'
      ? (env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'))
      : process.platform === 'darwin'
        ? path.join(os.homedir(), 'Library', 'Caches')
        : (env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'));
  return path.join(base, 'convai-config');
}
