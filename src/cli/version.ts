/** The tool's version: package.json's, written in by the build (scripts/build.mjs); unbundled, "development". */
declare const CONVAI_CLI_VERSION: string | undefined;

export const VERSION = typeof CONVAI_CLI_VERSION === 'string' ? CONVAI_CLI_VERSION : 'development';
