/** `trials clean [--url <base URL>] [--tenant <id>] [--all]`: deletes the trial copies that killed runs left. */
import { userCacheDir } from '../core/cache-dir';
import { cleanTrials } from '../core/trials/trial-clean';
import { trialJournalDir } from '../core/trials/trial-journal';
import { plural } from '../core/text';
import { EXIT, PROGRAM, UsageError, type Command } from './command';
import { tenantIdFrom, URL_VARIABLE, urlTarget, withClient } from './service';

export const trialsCommand: Command = {
  name: 'trials',
  summary: 'delete the trial copies that test --trial runs left on the service when they were killed',
  usage: 'clean [--url <base URL>] [--tenant <id>] [--all]',
  details: [
    `--url <base URL>  the service (default: the environment variable ${URL_VARIABLE})`,
    "--tenant <id>     only this tenant's copies (default: every tenant a run on this machine left copies in)",
    '--all             also every prompt of the tenant named "[trial <tag>] …", for runs killed on another machine; needs --tenant',
    'Deletes the copies the journals of this machine name (in the cache folder, CONVAI_CACHE_DIR to move it), by id or, when a create was never answered, by name, and lists each.',
    'Exits 0 when none is left, 1 when a copy could not be deleted (it is named, and the next clean tries again).',
  ],
  options: { url: { type: 'string' }, tenant: { type: 'string' }, all: { type: 'boolean' } },
  async run(args, context) {
    const [action, ...extra] = args.positionals;
    if (action !== 'clean' || extra.length > 0)
      throw new UsageError(`trials takes one action, clean: ${PROGRAM} trials clean [--tenant <id>] [--all].`);
    const flag = args.values.tenant;
    const tenantId = typeof flag === 'string' ? tenantIdFrom(flag, '--tenant') : undefined;
    const all = args.values.all === true;
    if (all && tenantId === undefined)
      throw new UsageError('--all deletes every copy in one tenant: give it with --tenant <id>.');
    const target = urlTarget(
      typeof args.values.url === 'string' ? args.values.url : undefined,
      context.env,
      'trials clean',
    );
    const result = await withClient(target, context.env, (client) =>
      cleanTrials(client, { dir: trialJournalDir(userCacheDir(context.env)), service: target.baseUrl, tenantId, all }),
    );
    for (const { id, name } of result.deleted) context.out(`Deleted "${name}" (${id}).`);
    for (const { name, reason } of result.left) context.err(`Could not delete "${name}": ${reason}.`);
    context.out(
      result.deleted.length === 0 && result.left.length === 0
        ? 'No trial copy was left.'
        : `${plural(result.deleted.length, 'trial copy', 'trial copies')} deleted, ${result.left.length} left.`,
    );
    return result.left.length === 0 ? EXIT.ok : EXIT.failed;
  },
};
