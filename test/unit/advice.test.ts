import * as assert from 'node:assert/strict';
import { cliAdvice, MANIFEST_URL } from '../../src/cli/service';
import { VS_CODE_ADVICE } from '../../src/shared/advice';
import { NEUTRAL_ADVICE, type Advice } from '../../src/core/advice';
import { parseBaseUrl } from '../../src/core/base-url';
import { timeoutError } from '../../src/core/errors';
import { httpError, redirectError } from '../../src/core/http-errors';
import { networkError } from '../../src/core/network-errors';

const info = { connection: 'local', method: 'GET', path: '/api/v1/ai_prompts/3?tenant_id=1' };
const coded = (code: string): Error =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code.toLowerCase()), { code }) });

/** One failure of each fix the core can name, said with `advice`. */
function failures(advice: Advice) {
  return {
    refusedToken: httpError(info, 401, '{"error":"Invalid token"}', 'application/json', advice),
    forbidden: httpError(info, 403, '', '', advice),
    notFound: httpError(info, 404, '', '', advice),
    proxyAuth: httpError(info, 407, '', '', advice),
    redirect: redirectError(info, 302, 'https://elsewhere.example.com/', advice),
    timeout: timeoutError(info, 30_000, advice),
    untrustedCa: networkError(info, coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), undefined, advice),
    selfSigned: networkError(info, coded('DEPTH_ZERO_SELF_SIGNED_CERT'), undefined, advice),
    refused: networkError(info, coded('ECONNREFUSED'), undefined, advice),
    notFoundHost: networkError(info, coded('ENOTFOUND'), undefined, advice),
    connectTimeout: networkError(info, coded('UND_ERR_CONNECT_TIMEOUT'), undefined, advice),
    unknown: networkError(info, coded('EWEIRD'), undefined, advice),
  };
}

/** Words of VS Code's commands and settings. */
const VS_CODE_WORDS = /ConvAI:|convai\.|http\.proxy|http\.noProxy|refresh the view|the connection's baseUrl/;

function credentialsInUrl(advice: Advice): string {
  try {
    parseBaseUrl('https://user:secret@config.example.com', advice);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('a base URL with credentials is refused');
}

describe("error messages in each shell's words", () => {
  it('names the fix as a fact on the error, whatever the words', () => {
    const remedies = Object.fromEntries(
      Object.entries(failures(NEUTRAL_ADVICE)).map(([name, error]) => [name, error.remedy]),
    );
    assert.deepEqual(remedies, {
      refusedToken: 'token',
      forbidden: 'access',
      notFound: 'refresh',
      proxyAuth: 'proxyCredentials',
      redirect: 'baseUrl',
      timeout: 'timeout',
      untrustedCa: 'caCertificates',
      selfSigned: 'caCertificates',
      refused: 'baseUrl',
      notFoundHost: 'baseUrl',
      connectTimeout: 'proxy',
      unknown: undefined,
    });
  });

  it('says every fix without VS Code or command-line words when no shell gives advice', () => {
    for (const [name, error] of Object.entries(failures(NEUTRAL_ADVICE))) {
      assert.doesNotMatch(error.message, VS_CODE_WORDS, name);
      assert.doesNotMatch(error.message, /CONVAI_|NODE_EXTRA|--url/, name);
    }
    assert.equal(
      failures(NEUTRAL_ADVICE).timeout.message,
      'local: GET /api/v1/ai_prompts/3?tenant_id=1 timed out: no complete answer within 30 s. The service may be overloaded or unreachable; try again, or raise the time-out.',
    );
    assert.equal(credentialsInUrl(NEUTRAL_ADVICE), 'baseUrl must not hold a user name or password: set a valid token.');
  });

  it("keeps VS Code's messages: its commands and settings", () => {
    const said = failures(VS_CODE_ADVICE);
    assert.equal(
      said.refusedToken.message,
      'local: GET /api/v1/ai_prompts/3?tenant_id=1 failed with 401 Unauthorized: Invalid token. Set the connection\'s token with "ConvAI: Set Token".',
    );
    assert.match(
      said.notFound.message,
      /: Not Found\. It may have been deleted \(refresh the view\), or the connection's baseUrl may be wrong\.$/,
    );
    assert.match(
      said.proxyAuth.message,
      /The proxy needs credentials: put them in http\.proxy as http:\/\/user:password@host:port\.$/,
    );
    assert.match(said.redirect.message, /if the service moved, change the connection's baseUrl\.$/);
    assert.match(said.timeout.message, /try again, or raise convai\.requestTimeoutSeconds\.$/);
    assert.match(
      said.untrustedCa.message,
      /if the service uses a private or company CA, add its PEM file to the convai\.caCertificates setting\.$/,
    );
    assert.match(
      said.refused.message,
      /the connection was refused; check that the service is running and the connection's baseUrl is right\.$/,
    );
    assert.match(
      said.connectTimeout.message,
      /check the network or VPN, and set http\.proxy if this network needs a proxy\.$/,
    );
    assert.match(credentialsInUrl(VS_CODE_ADVICE), /"ConvAI: Set Token"/);
  });

  it("says the command line's fixes (environment variables and flags) and never VS Code's", () => {
    const said = failures(cliAdvice('--url'));
    for (const [name, error] of Object.entries(said)) assert.doesNotMatch(error.message, VS_CODE_WORDS, name);
    assert.match(
      said.refusedToken.message,
      /401 Unauthorized: Invalid token\. Set the environment variable CONVAI_TOKEN to a valid token for this service\.$/,
    );
    assert.match(said.forbidden.message, /The token may not do this; set CONVAI_TOKEN to a token with access to it\.$/);
    assert.match(said.redirect.message, /change the base URL \(--url\)\.$/);
    assert.match(
      said.timeout.message,
      /raise the environment variable CONVAI_TIMEOUT_SECONDS \(seconds, 1 to 600\)\.$/,
    );
    assert.match(said.untrustedCa.message, /point the environment variable NODE_EXTRA_CA_CERTS to its PEM file\.$/);
    assert.match(
      said.selfSigned.message,
      /self-signed and not trusted; point the environment variable NODE_EXTRA_CA_CERTS to its PEM file\.$/,
    );
    assert.match(said.connectTimeout.message, /the CLI connects directly, not through a proxy\.$/);
    assert.match(said.proxyAuth.message, /the CLI connects directly/);
    assert.match(
      failures(cliAdvice(MANIFEST_URL)).refused.message,
      /check that the service is running and the base URL \(baseUrl in the folder's convai-tenant\.json\) is right\.$/,
    );
    assert.match(credentialsInUrl(cliAdvice('--url')), /set the environment variable CONVAI_TOKEN/);
  });
});
