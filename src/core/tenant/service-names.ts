/**
 * Who holds a name on the service, among the resources a folder does not
 * know: what a lost create left behind (adopted instead of created again), or
 * a name a new file must not take (names are unique per kind). One listing
 * per kind for a whole plan.
 */
import type { ServiceClient } from '../client';
import type { JsonObject } from '../json';
import { kindOfSegment } from '../resources';
import type { Segment } from '../resource-kind';
import type { Manifest } from './manifest';

export interface NameHolder {
  id: number;
  name: string;
}

export class ServiceNames {
  private readonly listings = new Map<Segment, Promise<JsonObject[]>>();
  private readonly known: Set<string>;

  constructor(
    private readonly client: ServiceClient,
    private readonly manifest: Manifest,
    private readonly signal?: AbortSignal,
  ) {
    this.known = new Set(manifest.resources.map((entry) => `${entry.segment}/${entry.id}`));
  }

  /** The resources of a kind named `name` that the folder's manifest does not hold. */
  async unknownHolders(segment: Segment, name: string): Promise<NameHolder[]> {
    let listing = this.listings.get(segment);
    if (!listing) {
      listing = this.client.list(kindOfSegment(segment), this.manifest.tenantId, { signal: this.signal });
      this.listings.set(segment, listing);
    }
    return (await listing).flatMap((summary) =>
      typeof summary.id === 'number' && summary.name === name && !this.known.has(`${segment}/${summary.id}`)
        ? [{ id: summary.id, name }]
        : [],
    );
  }

  /** A resource the folder holds from now on. */
  adopt(segment: Segment, id: number): void {
    this.known.add(`${segment}/${id}`);
  }
}
