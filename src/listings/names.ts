import type { ListingCache } from '../core/listing-cache';
import { describeLocation, type WholeLocation } from '../core/uri';

/**
 * `"Order Triage" (AI Prompt 3 of tenant 1 on local)`: a resource as a person
 * reads it, named from the shared listing (by id alone when that fails).
 */
export async function describeNamed(listings: ListingCache, location: WholeLocation): Promise<string> {
  if (location.type === 'tenant') return describeLocation(location);
  const listed = await listings.get({
    connection: location.connection,
    tenantId: location.tenantId,
    segment: location.segment,
  });
  const name = listed.ok ? listed.value.find((item) => item.id === location.id)?.name : undefined;
  return describeLocation(location, typeof name === 'string' && name.trim() !== '' ? name : undefined);
}
