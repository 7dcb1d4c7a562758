/** A connection's base URL: checked when it is given, compared when a folder names its service. */
import { NEUTRAL_ADVICE } from './advice';

/** Whether two base URLs name one service: the same origin and path, a trailing slash aside; false for a non-URL. */
export function sameBaseUrl(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    return x.origin === y.origin && x.pathname.replace(/\/+$/, '') === y.pathname.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/** Validates a connection's baseUrl, naming the problem; `advice` says where the token goes instead. */
export function parseBaseUrl(baseUrl: string, advice = NEUTRAL_ADVICE): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl "${baseUrl}" is not a URL: use the form https://host[:port][/path].`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl "${baseUrl}" must start with http:// or https://.`);
  }
  if (url.username || url.password) {
    throw new TypeError(`baseUrl must not hold a user name or password: ${advice.token}.`);
  }
  if (url.search || url.hash) {
    throw new TypeError(`baseUrl "${baseUrl}" must not hold a query or fragment.`);
  }
  return url;
}
