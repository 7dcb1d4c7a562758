/**
 * What a trial run has made, written before each copy is created (contract: "Trials"): a run killed between its
 * creates and its deletes leaves a journal, and the next trial run against the same service and tenant, or
 * `convai trials clean`, deletes what it names. One file per run in the cache folder, so runs side by side never
 * write the same file; a copy's name is recorded before its create is sent, so even a create whose answer was lost
 * is found again, by name.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sameBaseUrl } from '../base-url';
import { isJsonObject } from '../json';

/** A copy as the journal holds it: its marked name, and its id once the service answered the create. */
export interface JournalCopy {
  name: string;
  id?: number;
}

export interface JournalRecord {
  service: string;
  tenantId: number;
  tag: string;
  copies: JournalCopy[];
}

/** The journals' folder inside the tools' cache folder. */
export function trialJournalDir(cacheDir: string): string {
  return path.join(cacheDir, 'trials');
}

function fileOf(dir: string, tag: string): string {
  return path.join(dir, `${tag}.json`);
}

function recordOf(value: unknown): JournalRecord | undefined {
  if (!isJsonObject(value)) return undefined;
  const { service, tenantId, tag, copies } = value;
  if (typeof service !== 'string' || typeof tenantId !== 'number' || typeof tag !== 'string') return undefined;
  if (!Array.isArray(copies)) return undefined;
  return {
    service,
    tenantId,
    tag,
    copies: copies.flatMap((c) =>
      isJsonObject(c) && typeof c.name === 'string'
        ? [{ name: c.name, ...(typeof c.id === 'number' ? { id: c.id } : {}) }]
        : [],
    ),
  };
}

/** A file on disk never holds a password a base URL carried. */
function withoutCredentials(service: string): string {
  try {
    const url = new URL(service);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return service;
  }
}

/** One run's journal: every change is on disk before the request it announces is sent. */
export class TrialJournal {
  private readonly record: JournalRecord;

  constructor(
    private readonly dir: string,
    service: string,
    tenantId: number,
    tag: string,
  ) {
    this.record = { service: withoutCredentials(service), tenantId, tag, copies: [] };
  }

  /** Before a create is sent: the copy's marked name. */
  async creating(name: string): Promise<void> {
    this.record.copies.push({ name });
    await this.write();
  }

  async created(name: string, id: number): Promise<void> {
    const copy = this.record.copies.find((c) => c.name === name && c.id === undefined);
    if (copy) copy.id = id;
    await this.write();
  }

  /** The copies deleted; the journal goes when none is left. */
  async deleted(names: ReadonlySet<string>): Promise<void> {
    this.record.copies = this.record.copies.filter((c) => !names.has(c.name));
    if (this.record.copies.length === 0) await rm(fileOf(this.dir, this.record.tag), { force: true });
    else await this.write();
  }

  private async write(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = fileOf(this.dir, this.record.tag);
    // A run killed mid-write leaves the last whole journal, never half of one.
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(this.record));
    await rename(temporary, file);
  }
}

/** The journals that runs left for a service (and a tenant, when given), oldest tag first. */
export async function leftJournals(dir: string, service: string, tenantId?: number): Promise<JournalRecord[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const records: JournalRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    let record: JournalRecord | undefined;
    try {
      record = recordOf(JSON.parse(await readFile(path.join(dir, name), 'utf8')));
    } catch {
      record = undefined;
    }
    if (record && sameBaseUrl(record.service, service) && (tenantId === undefined || record.tenantId === tenantId))
      records.push(record);
  }
  return records;
}

/** Rewrites a left journal to what is still not deleted, or removes it. */
export async function settleJournal(dir: string, record: JournalRecord, left: readonly JournalCopy[]): Promise<void> {
  const file = fileOf(dir, record.tag);
  if (left.length === 0) await rm(file, { force: true });
  else await writeFile(file, JSON.stringify({ ...record, copies: left }));
}
