/** Who a request's bearer token belongs to. */

import { unauthorized } from './replies';
import type { Store } from './store';

export type Principal = { kind: 'admin' } | { kind: 'tenant'; tenantId: number };

/** As recorded for tests: never the token itself. */
export type TokenKind = 'admin' | 'tenant' | 'unknown' | 'none';

export interface Identity {
  tokenKind: TokenKind;
  principal?: Principal;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function identify(header: string | undefined, store: Store, adminToken: string): Identity {
  if (header === undefined) {
    return { tokenKind: 'none' };
  }
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) {
    return { tokenKind: 'unknown' };
  }
  if (token === adminToken) {
    return { tokenKind: 'admin', principal: { kind: 'admin' } };
  }
  const tenant = store.tenantByToken(token);
  return tenant
    ? { tokenKind: 'tenant', principal: { kind: 'tenant', tenantId: tenant.id } }
    : { tokenKind: 'unknown' };
}

export function requirePrincipal(identity: Identity): Principal {
  if (identity.principal) {
    return identity.principal;
  }
  throw unauthorized(
    identity.tokenKind === 'none' ? 'Missing Authorization: Bearer token' : 'Invalid or unknown bearer token',
  );
}
