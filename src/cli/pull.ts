/**
 * `pull --url <base URL> --tenant <id> [--connection <name>] <folder>`: a tenant into a folder; into a folder
 * pulled before, `pull <folder>` takes both from its manifest.
 */
import { stat } from 'node:fs/promises';
import { DiskFolder } from '../core/tenant/disk-folder';
import { loadManifest } from '../core/tenant/manifest';
import { pullTenant, type PullResult } from '../core/tenant/pull';
import type { KeptChange } from '../core/tenant/pull-resource';
import { EXIT, UsageError, type ArgValue, type Command } from './command';
import { baseUrlFrom, folderArgument, manifestTarget, tenantIdFrom, tokenFrom, withClient } from './service';
import { plural } from '../core/text';

/** The manifest's connection name when none is given: the extension matches it against its connections' names. */
export const DEFAULT_CONNECTION = 'cli';
/** The pattern of a connection name in the extension's settings, so the folder opens there too. */
const CONNECTION_NAME = /^[a-z0-9-]{1,40}$/;

function given(value: ArgValue): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function required(value: string | undefined, flag: string, hint: string): string {
  if (value === undefined)
    throw new UsageError(`pull needs ${flag} ${hint} (a folder pulled before needs neither --url nor --tenant).`);
  return value;
}

function keptLine({ file, fields }: KeptChange): string {
  return `kept ${file} (${fields.length > 0 ? `your change: ${fields.join(', ')}` : 'left as it is: removed, unreadable, or deleted on the service; plan says which'})`;
}

function counts(result: PullResult): string {
  return `${plural(result.written.length, 'file')} written, ${plural(result.kept.length, 'file')} kept with your changes, ${plural(result.removed.length, 'file')} removed.`;
}

/** A line per file kept or removed (a handful), the written ones only when asked for: a pull may write thousands. */
function fileLines(result: PullResult, listWritten: boolean): string[] {
  return [
    // Sorted only when listed: a large tenant's pull writes far more files than anyone reads.
    ...(listWritten ? [...result.written].sort().map((file) => `wrote ${file}`) : []),
    ...result.kept.map(keptLine),
    ...result.removed.map((file) => `removed ${file}`),
  ];
}

export const pullCommand: Command = {
  name: 'pull',
  summary: 'write a tenant of the service into a folder (created if missing)',
  usage: '[--url <base URL> --tenant <id>] [--connection <name>] [--list-written] <folder>',
  details: [
    "--url <base URL>     the service, e.g. https://convai.example.com (/api/v1 is appended); default: the folder's, when pulled before",
    "--tenant <id>        the tenant's id; default: the folder's, when pulled before",
    `--connection <name>  the connection name kept in the folder's manifest, as named in VS Code's convai.connections (default: the folder's, else "${DEFAULT_CONNECTION}")`,
    '--list-written        also print a line "wrote <file>" per file written (kept and removed files are always listed)',
    "Pulling again takes the service's version of every field you did not change since the last pull and keeps the ones you did.",
  ],
  options: {
    'list-written': { type: 'boolean' },
    url: { type: 'string' },
    tenant: { type: 'string' },
    connection: { type: 'string' },
  },
  async run(args, context) {
    const url = given(args.values.url);
    const tenantText = given(args.values.tenant);
    const named = typeof args.values.connection === 'string' ? args.values.connection : undefined;
    if (named !== undefined && !CONNECTION_NAME.test(named))
      throw new UsageError(
        `--connection "${named}" is not a connection name: use 1 to 40 characters of a-z, 0-9 and -.`,
      );
    const root = folderArgument(args, context, 'pull');
    if (
      await stat(root).then(
        (s) => !s.isDirectory(),
        () => false,
      )
    )
      throw new UsageError(`${root} is a file: give a folder to pull into (it is created if missing).`);
    const io = new DiskFolder(root, { blocking: true });
    // Pulling again keeps the name, the service and the tenant the folder has (perhaps given in VS Code) unless told otherwise.
    const loaded = await loadManifest(io);
    const target =
      url === undefined && loaded
        ? manifestTarget({ root, manifest: loaded.manifest }, context.env)
        : {
            baseUrl: baseUrlFrom(required(url, '--url', '<base URL>, e.g. --url https://convai.example.com'), '--url'),
            urlSource: '--url',
            token: tokenFrom(context.env),
          };
    const tenant =
      tenantText === undefined && loaded
        ? loaded.manifest.tenantId
        : tenantIdFrom(required(tenantText, '--tenant', '<id>, e.g. --tenant 1'), '--tenant');
    const connection = named ?? loaded?.manifest.connection ?? DEFAULT_CONNECTION;
    const { baseUrl } = target;
    // Ctrl+C stops the requests; the pull then writes the manifest of what it wrote, so the next pull completes it.
    const stopper = new AbortController();
    const release = context.onInterrupt?.(() => stopper.abort());
    const onProgress = (done: number, total: number): void =>
      context.progress?.show(`pull: ${done} of ${plural(total, 'resource')}`);
    let result: PullResult;
    try {
      result = await withClient(target, context.env, (client) =>
        pullTenant(
          client,
          io,
          { connection, baseUrl, tenantId: tenant },
          { loaded, signal: stopper.signal, onProgress },
        ),
      );
    } catch (error) {
      if (!stopper.signal.aborted) throw error;
      context.err(
        `Stopped by Ctrl+C: ${root} holds what was pulled so far, recorded in its manifest; run pull again to complete it.`,
      );
      return EXIT.interrupted;
    } finally {
      release?.();
      context.progress?.clear();
    }
    for (const note of result.notes) context.err(`note: ${note}`);
    for (const duplicate of result.duplicates) context.err(`warning: ${duplicate}`);
    context.out(
      `Pulled tenant ${tenant} of ${baseUrl} into ${root}: ${plural(result.resources, 'resource')}; ${counts(result)}`,
    );
    for (const line of fileLines(result, args.values['list-written'] === true)) context.out(line);
    return EXIT.ok;
  },
};
