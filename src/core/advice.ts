/**
 * The fixes the core's errors can name, and how a shell phrases them. The
 * core states the facts (what failed and why) and picks the fix; VS Code says
 * "a setting or a command" and the CLI "an environment variable or a flag",
 * so each brings its own Advice and the core only puts the phrase in place.
 * Each phrase must read right in the sentence its comment gives.
 */
export interface Advice {
  /** How to give a valid token, a clause: "Invalid token. Set a valid token." */
  readonly token: string;
  /** How to use a token that may do this, a clause: "The token may not do this; use a token with access to it." */
  readonly access: string;
  /** How to see whether a resource still exists, a clause: "It may have been deleted (check that it still exists)". */
  readonly refresh: string;
  /** Where the service's address is set, a noun phrase: "check that the service is running and the base URL is right". */
  readonly baseUrl: string;
  /** Where the request deadline is set, a noun phrase: "try again, or raise the time-out". */
  readonly timeout: string;
  /** How to trust a certificate or CA, a clause: "if the service uses a company CA, add its PEM file to the trusted CAs". */
  readonly caCertificates: string;
  /** What to do when the network may need a proxy, a clause: "check the network or VPN, and set a proxy if this network needs one". */
  readonly proxy: string;
  /** How to give the proxy credentials, a clause: "The proxy needs credentials: give them in the proxy address…". */
  readonly proxyCredentials: string;
  /** How to accept an https proxy's unverified certificate, a clause: "check the proxy address, or turn off…". */
  readonly proxyStrictSSL: string;
  /** How to let requests to the service skip the proxy, a clause: "check that the proxy may reach the service, or let…". */
  readonly noProxy: string;
}

/** What the user can do about a failure; "retryLater" is said the same in every shell, so it has no phrase. */
export type Remedy = keyof Advice | 'retryLater';

/** For code that has no shell of its own (tests, scripts): no VS Code or command-line words. */
export const NEUTRAL_ADVICE: Advice = {
  token: 'set a valid token',
  access: 'use a token with access to it',
  refresh: 'check that it still exists',
  baseUrl: 'the base URL',
  timeout: 'the time-out',
  caCertificates: 'add its PEM file to the trusted CA certificates',
  proxy: 'set a proxy if this network needs one',
  proxyCredentials: 'give them in the proxy address as http://user:password@host:port',
  proxyStrictSSL: "stop verifying the proxy's certificate",
  noProxy: 'let requests to its host skip the proxy',
};
