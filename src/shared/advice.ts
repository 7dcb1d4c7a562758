/**
 * The core's fixes in VS Code's words: its commands and settings. No vscode
 * import, so the unit tests can check the messages users see.
 */
import type { Advice } from '../core/advice';

/** The setting that lists extra trusted CA files (PEM). */
export const CA_SETTING = 'convai.caCertificates';

export const VS_CODE_ADVICE: Advice = {
  token: 'set the connection\'s token with "ConvAI: Set Token"',
  access: 'use a token with access to it',
  refresh: 'refresh the view',
  baseUrl: "the connection's baseUrl",
  timeout: 'convai.requestTimeoutSeconds',
  caCertificates: `add its PEM file to the ${CA_SETTING} setting`,
  proxy: 'set http.proxy if this network needs a proxy',
  proxyCredentials: 'put them in http.proxy as http://user:password@host:port',
  proxyStrictSSL: 'set http.proxyStrictSSL to false',
  noProxy: 'add its host to http.noProxy',
};
