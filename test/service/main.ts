/** CLI of the local service: prints its base URL and sample tokens, stops on SIGINT/SIGTERM. */

import { parseArgs } from 'node:util';
import type { Fault } from './faults';
import { type RunningService, type ServiceOptions, startService } from './server';
import { messageOf } from '../../src/core/text';

const USAGE = `Usage: node out/test/service/main.js --admin-token <token> [--port <port>] [--test-mode]
         [--latency <ms>] [--fail-next <n> [--fail-status <code>]] [--drop-next <n>] [--timestamps]
         [--duplicate-names] [--large] [--answer-variation <rate> [--answer-seed <n>]]

  --admin-token <token>  bearer token that sees every tenant (required)
  --port <port>          port on 127.0.0.1; 0 or absent picks a free one
  --test-mode            enable the /__test/ routes (faults, reset, request log)
  --latency <ms>         delay every API request
  --fail-next <n>        answer the next n API requests with --fail-status (default 500)
  --drop-next <n>        close the connection of the next n API requests without answering
                         (after the --fail-next ones)
  --timestamps           add created_at and updated_at to detail and list answers (not to
                         create or update answers), as a real service may
  --duplicate-names      add a tenant "Duplicate Names" after the sample tenants, in which two
                         prompts are named "Greeting" and two actions "Transfer", as nothing on
                         a real service forbids
  --large                seed tenant 3, "Bulk Co": 50,000 prompts in 200 groups, 10,000 intents
                         in a hierarchy and 1,000 of each other kind
  --answer-variation <rate>  make this share (0 to 1) of test_prompt answers say "I am not sure."
                         and follow no route, as a real model's answers vary
  --answer-seed <n>      seed of those draws (default 1), for the same answers on each start`;

class UsageError extends Error {}

function integerOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return number;
}

function rateOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const number = /^(0(\.\d+)?|1(\.0+)?)$/.test(value) ? Number(value) : NaN;
  if (Number.isNaN(number)) {
    throw new UsageError(`--${name} must be a number from 0 to 1, got "${value}"`);
  }
  return number;
}

function readArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        'admin-token': { type: 'string' },
        'test-mode': { type: 'boolean' },
        latency: { type: 'string' },
        'fail-next': { type: 'string' },
        'fail-status': { type: 'string' },
        'drop-next': { type: 'string' },
        timestamps: { type: 'boolean' },
        'duplicate-names': { type: 'boolean' },
        large: { type: 'boolean' },
        'answer-variation': { type: 'string' },
        'answer-seed': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
}

function parseOptions(argv: string[]): ServiceOptions | 'help' {
  const parsed = readArgs(argv);
  if (parsed.help) {
    return 'help';
  }
  const adminToken = parsed['admin-token'];
  if (adminToken === undefined || adminToken.trim() === '' || /\s/.test(adminToken)) {
    throw new UsageError('--admin-token <token> is required (a token without spaces)');
  }
  const failNext = integerOption(parsed['fail-next'], 'fail-next', 1, 1_000_000);
  const failStatus = integerOption(parsed['fail-status'], 'fail-status', 200, 599);
  if (failStatus !== undefined && failNext === undefined) {
    throw new UsageError('--fail-status needs --fail-next <n>');
  }
  const dropNext = integerOption(parsed['drop-next'], 'drop-next', 1, 1_000_000);
  const answerSeed = integerOption(parsed['answer-seed'], 'answer-seed', 0, 2 ** 32 - 1);
  if (answerSeed !== undefined && parsed['answer-variation'] === undefined) {
    throw new UsageError('--answer-seed needs --answer-variation <rate>');
  }
  const faults: Fault[] = [];
  if (failNext !== undefined) {
    faults.push({ status: failStatus ?? 500, count: failNext });
  }
  if (dropNext !== undefined) {
    faults.push({ drop: true, count: dropNext });
  }
  return {
    adminToken,
    port: integerOption(parsed.port, 'port', 0, 65535) ?? 0,
    testMode: parsed['test-mode'] ?? false,
    latencyMs: integerOption(parsed.latency, 'latency', 0, 600_000) ?? 0,
    faults,
    timestamps: parsed.timestamps ?? false,
    duplicateNames: parsed['duplicate-names'] ?? false,
    largeTenant: parsed.large ?? false,
    answerVariation: rateOption(parsed['answer-variation'], 'answer-variation'),
    answerSeed,
  };
}

function describe(service: RunningService, options: ServiceOptions): string {
  return [
    `ConvAI local service: ${service.url}`,
    `Admin token: ${service.adminToken}`,
    ...service.tenantTokens.map((t) => `Tenant ${t.id} (${t.name}) token: ${t.token}`),
    ...(options.testMode ? ['Test mode: /__test/ routes enabled'] : []),
    ...(options.timestamps ? ['Timestamps: created_at and updated_at in detail and list answers'] : []),
    ...(options.answerVariation
      ? [`Answer variation: ${options.answerVariation} of test_prompt answers differ (seed ${options.answerSeed ?? 1})`]
      : []),
  ].join('\n');
}

function optionsOrExit(argv: string[]): ServiceOptions | 'help' {
  try {
    return parseOptions(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const options = optionsOrExit(process.argv.slice(2));
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const service = await startService(options);
  console.log(describe(service, options));
  const stop = (): void => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`ConvAI local service failed to start: ${messageOf(error)}`);
  process.exit(1);
});
