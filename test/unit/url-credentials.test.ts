import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Json } from '../../src/core/json';
import { CREDENTIAL_MASK } from '../../src/core/credentials';
import { KEPT_ON_SERVICE as M } from '../../src/core/tenant/folder-values';
import { hideUrlPasswords, restoreUrlPasswords, urlPasswordMarkers } from '../../src/core/url-credentials';

const hidden = (text: string): Json => hideUrlPasswords(text, M);

describe('URL passwords: hiding', () => {
  it('hides the password of database, broker and web URLs, leaving the rest readable', () => {
    assert.equal(
      hidden('postgres://app:s3cret@db.internal:5432/orders?sslmode=require'),
      `postgres://app:${M}@db.internal:5432/orders?sslmode=require`,
    );
    assert.equal(hidden('mysql://root:hunter2@127.0.0.1:3306/app'), `mysql://root:${M}@127.0.0.1:3306/app`);
    assert.equal(hidden('amqp://guest:guest@rabbit:5672/%2f'), `amqp://guest:${M}@rabbit:5672/%2f`);
    assert.equal(hidden('https://bot:tok-123@api.example.com/hook'), `https://bot:${M}@api.example.com/hook`);
    assert.equal(
      hidden('mongodb+srv://svc:pw@cluster0.example.net/db'),
      `mongodb+srv://svc:${M}@cluster0.example.net/db`,
    );
  });

  it('hides every URL of a string, inside longer text too', () => {
    assert.equal(
      hidden('primary postgres://a:one@p/x, replica postgres://b:two@r/x\nqueue amqp://c:three@q'),
      `primary postgres://a:${M}@p/x, replica postgres://b:${M}@r/x\nqueue amqp://c:${M}@q`,
    );
    assert.equal(
      hidden('Connect with DATABASE_URL=postgres://u:pw@h/x then run.'),
      `Connect with DATABASE_URL=postgres://u:${M}@h/x then run.`,
    );
  });

  it('finds a URL whose scheme a parser would read as the end of the previous authority', () => {
    assert.equal(hidden('redis://a:one@h1,redis://b:two@h2'), `redis://a:${M}@h1,redis://b:${M}@h2`);
  });

  it('reads the user-info up to the last @ and the password from its first colon', () => {
    assert.equal(hidden('postgres://user:p@ss@db/x'), `postgres://user:${M}@db/x`);
    assert.equal(hidden('postgres://user:pa:ss@db/x'), `postgres://user:${M}@db/x`);
    assert.equal(hidden('postgres://:only-a-password@db'), `postgres://:${M}@db`);
  });

  it('hides a percent-encoded password as it is written', () => {
    assert.equal(hidden('postgres://user:p%40ss%2Fw%3A@db/x'), `postgres://user:${M}@db/x`);
  });

  it('leaves what holds no password alone', () => {
    for (const text of [
      'postgres://user@db/x',
      'postgres://user:@db/x',
      'postgres://db:5432/x',
      'user:pw@host',
      '//user:pw@host/x',
      '1+-://user:pw@host',
      'https://example.com/path?login=u:p@h',
      'https://example.com/#u:p@h',
      'mail admin@example.com: ready',
      '',
    ])
      assert.equal(hidden(text), text);
  });

  it('ends the authority at a path, query, fragment or whitespace', () => {
    assert.equal(hidden('https://u:p@h?next=a:b@c'), `https://u:${M}@h?next=a:b@c`);
    assert.equal(hidden('https://u:p@h#frag:x@y'), `https://u:${M}@h#frag:x@y`);
    assert.equal(hidden('https://u:p@h next:word@z'), `https://u:${M}@h next:word@z`);
  });

  it('reads IPv6 hosts and ports after the last @', () => {
    assert.equal(hidden('http://u:p@[::1]:5432/x'), `http://u:${M}@[::1]:5432/x`);
  });

  it('keeps a password that already is the marker', () => {
    assert.equal(hidden(`postgres://u:${M}@db/x`), `postgres://u:${M}@db/x`);
  });

  it('walks nested arrays and objects, changing no key and no other value, and leaves the original alone', () => {
    const integration: Json = {
      name: 'warehouse',
      tec_params: {
        dsn: 'postgres://etl:pw1@dw/x',
        replicas: ['mysql://r:pw2@r1/x', { url: 'amqp://q:pw3@q1', retries: 3, tls: true, proxy: null }],
        'https://key:pw4@host': 'no URL here',
      },
    };
    const copy = structuredClone(integration);
    assert.deepEqual(hideUrlPasswords(integration, M), {
      name: 'warehouse',
      tec_params: {
        dsn: `postgres://etl:${M}@dw/x`,
        replicas: [`mysql://r:${M}@r1/x`, { url: `amqp://q:${M}@q1`, retries: 3, tls: true, proxy: null }],
        'https://key:pw4@host': 'no URL here',
      },
    });
    assert.deepEqual(integration, copy);
  });

  it('keeps a key named __proto__ as a key', () => {
    const value = JSON.parse('{"__proto__":"redis://u:pw@h"}') as Json;
    const out = hideUrlPasswords(value, M) as Record<string, Json>;
    assert.deepEqual(Object.keys(out), ['__proto__']);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
  });

  it('masks for display with CREDENTIAL_MASK as the marker', () => {
    assert.equal(hideUrlPasswords('postgres://u:pw@db/x', CREDENTIAL_MASK), `postgres://u:${CREDENTIAL_MASK}@db/x`);
  });

  it('reads a long run of scheme characters in linear time', () => {
    const blob = `${'QUJD'.repeat(250_000)}://`.repeat(4);
    assert.equal(hidden(blob), blob);
  });
});

describe('URL passwords: restoring for a push', () => {
  const current: Json = { dsn: 'postgres://etl:pw1@dw/x', urls: ['a://u:pw2@h1 b://v:pw3@h2'] };

  it('gives each marker the password at the same place of the current value', () => {
    assert.deepEqual(restoreUrlPasswords(hideUrlPasswords(current, M), current, M), { value: current, missing: [] });
  });

  it('keeps what the user changed around the marker, and a password they typed', () => {
    const local: Json = { dsn: `postgres://etl:${M}@dw/y?sslmode=require`, urls: [`a://u:typed@h1 b://v:${M}@h2/z`] };
    assert.deepEqual(restoreUrlPasswords(local, current, M), {
      value: { dsn: 'postgres://etl:pw1@dw/y?sslmode=require', urls: ['a://u:typed@h1 b://v:pw3@h2/z'] },
      missing: [],
    });
  });

  it('names each string holding a marker with no counterpart, once, and leaves the marker there', () => {
    const local: Json = {
      dsn: `postgres://etl:${M}@dw/x`,
      urls: [`a://u:${M}@h1 b://v:${M}@h2 c://w:${M}@h3 d://x:${M}@h4`],
      added: `e://y:${M}@h5`,
    };
    const { value, missing } = restoreUrlPasswords(local, current, M);
    assert.deepEqual(missing, [['urls', 0], ['added']]);
    assert.deepEqual(value, {
      dsn: 'postgres://etl:pw1@dw/x',
      urls: [`a://u:pw2@h1 b://v:pw3@h2 c://w:${M}@h3 d://x:${M}@h4`],
      added: `e://y:${M}@h5`,
    });
  });

  it('does not send a password to another user or host than the one it was kept for', () => {
    const moved: Json = { dsn: `postgres://etl:${M}@elsewhere/x`, urls: [`a://other:${M}@h1 b://v:${M}@h2`] };
    const { value, missing } = restoreUrlPasswords(moved, current, M);
    assert.deepEqual(missing, [['dsn'], ['urls', 0]]);
    assert.equal(JSON.stringify(value).includes('pw1'), false);
    assert.equal(JSON.stringify(value).includes('pw2'), false);
  });

  it('takes no counterpart from a value that is not a string, nor one that holds the marker itself', () => {
    assert.deepEqual(restoreUrlPasswords({ dsn: `p://u:${M}@h` }, { dsn: { p: 'p://u:pw@h' } }, M).missing, [['dsn']]);
    assert.deepEqual(restoreUrlPasswords([`p://u:${M}@h`], [`p://u:${M}@h`], M).missing, [[0]]);
    assert.deepEqual(restoreUrlPasswords(`p://u:${M}@h`, undefined, M).missing, [[]]);
  });

  it('lists the strings holding a marker as a URL password', () => {
    assert.deepEqual(urlPasswordMarkers({ a: [`x://u:${M}@h`, M, 'y://u:pw@h'], b: { c: `${M} z://u:${M}@h` } }, M), [
      ['a', 0],
      ['b', 'c'],
    ]);
  });
});

describe('URL passwords: properties', () => {
  const RUNS = { numRuns: 300 };
  const word = (chars: string, minLength = 0) =>
    fc.string({ unit: fc.constantFrom(...chars), minLength, maxLength: 12 });
  const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';
  /** Characters no other part of a generated value (nor the marker) uses: a password holds one, so finding it whole in the output means it leaked. */
  const ownOnly = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ%!*~';
  const password = fc.tuple(fc.constantFrom(...ownOnly), word(`${ownOnly}@:`)).map(([first, rest]) => first + rest);
  const url = fc
    .record({
      scheme: fc.constantFrom('postgres', 'mysql', 'amqp', 'https', 'mongodb+srv', 'x-custom.v2'),
      user: word(`${lower}@`),
      password,
      host: fc.oneof(word(`${lower}.-`, 1), fc.constant('[::1]')),
      port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      rest: fc.constantFrom('', '/db', '/db?x=a:b@c', '#f:g@h', '/p/q?r=s://t@v'),
    })
    .map((u) => {
      const at = `${u.host}${u.port === undefined ? '' : `:${u.port}`}${u.rest}`;
      return {
        password: u.password,
        text: `${u.scheme}://${u.user}:${u.password}@${at}`,
        hidden: `${u.scheme}://${u.user}:${M}@${at}`,
      };
    });
  const filler = word(`${lower} ,;()<>\n`);
  const withUrls = fc.array(fc.tuple(filler, url), { minLength: 1, maxLength: 4 }).map((parts) => ({
    text: parts.map(([before, u]) => before + u.text).join(''),
    hidden: parts.map(([before, u]) => before + u.hidden).join(''),
    passwords: parts.map(([, u]) => u.password),
  }));
  /** Strings full of URL syntax, including text that only looks like a URL. */
  const tricky = fc.string({
    unit: fc.constantFrom('a', 'b', ':', '/', '//', '://', '@', '?', '#', ' ', '[', ']', '%', '+', '1', 'ß', '\n'),
    maxLength: 40,
  });
  const json = fc.letrec<{ value: Json }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      tricky,
      withUrls.map((w) => w.text),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value')),
      fc.dictionary(fc.oneof(tricky, fc.constant('__proto__')), tie('value'), { noNullPrototype: true }),
    ),
  })).value;

  it('restores what it hid, with nothing missing', () => {
    fc.assert(
      fc.property(json, (value) => {
        const hiddenValue = hideUrlPasswords(value, M);
        assert.deepEqual(restoreUrlPasswords(hiddenValue, value, M), { value, missing: [] });
      }),
      RUNS,
    );
  });

  it('never writes a generated URL password out, and changes nothing else', () => {
    fc.assert(
      fc.property(fc.array(withUrls, { minLength: 1, maxLength: 3 }), (strings) => {
        const out = hideUrlPasswords({ tec_params: { urls: strings.map((s) => s.text) } }, M);
        assert.deepEqual(out, { tec_params: { urls: strings.map((s) => s.hidden) } });
        const text = JSON.stringify(out);
        for (const secret of strings.flatMap((s) => s.passwords))
          assert.equal(text.includes(secret), false, `${secret} in ${text}`);
      }),
      RUNS,
    );
  });

  it('never writes the secret of realistic strings out, and restores them', () => {
    const realistic: Array<[string, string]> = [
      ['postgres://app:S3cr3t!x@db.internal:5432/orders?sslmode=require', 'S3cr3t!x'],
      ['mysql://root:hunter2@127.0.0.1:3306/app', 'hunter2'],
      ['amqp://guest:gu3st%40pw@rabbit:5672/%2f', 'gu3st%40pw'],
      ['mongodb+srv://svc:m0ng0Pw@cluster0.abc.mongodb.net/db?retryWrites=true', 'm0ng0Pw'],
      ['redis://:r3disPw@cache:6379/0', 'r3disPw'],
      ['https://bot:tok-123@api.example.com/hook#section', 'tok-123'],
      ['sqlserver://sa:P@ssw0rd@@mssql:1433', 'P@ssw0rd@'],
      ['Run with DATABASE_URL=postgres://u:pa:ss@h/x and wait.', 'pa:ss'],
      ['{"dsn":"postgres://u:jsonPw@db/x","n":1}', 'jsonPw'],
      ['ftp://anonymous:guestPw@ftp.example.com, sftp://deploy:d3pl0y@host', 'd3pl0y'],
      ['http://u:v6Pw@[::1]:5432/x', 'v6Pw'],
    ];
    for (const [text, secret] of realistic) {
      const out = hideUrlPasswords({ tec_params: { dsn: text } }, M);
      assert.equal(JSON.stringify(out).includes(secret), false, text);
      assert.equal(JSON.stringify(hideUrlPasswords(text, CREDENTIAL_MASK)).includes(secret), false, text);
      assert.deepEqual(restoreUrlPasswords(out, { tec_params: { dsn: text } }, M), {
        value: { tec_params: { dsn: text } },
        missing: [],
      });
    }
  });
});
