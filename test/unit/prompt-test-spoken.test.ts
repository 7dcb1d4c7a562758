import * as assert from 'node:assert/strict';
import { checkOutput, expectationProblems } from '../../src/core/prompt-tests/assertions';
import { unspeakable, wordCount } from '../../src/core/prompt-tests/spoken';

describe('prompt tests: spoken answers', () => {
  it('passes plain speech: an apostrophe, a number, a price, a time, a sentence-ending question', () => {
    for (const text of [
      "It's 3.5 kilometres away, and it costs $5.",
      "We open at 10:30 tomorrow, don't worry.",
      'Is order A-17 late? No: it ships on 2 May.',
      'Call us on 555-0100 (or email) © 2026™',
      '',
    ]) {
      assert.deepEqual(unspeakable(text), [], text);
    }
  });

  it('names each kind of Markdown, a URL and an emoji, with its line and column', () => {
    const cases: Array<[string, string]> = [
      ['## Your order', 'a heading "##" at line 1, column 1'],
      ['Sure! **Right away**.', 'emphasis "**Right away**" at line 1, column 7'],
      ['That is _really_ late', 'emphasis "_really_" at line 1, column 9'],
      [
        'Options:\n- refund\n- exchange',
        'a list marker "-" at line 2, column 1; a list marker "-" at line 3, column 1',
      ],
      ['Steps:\n1. Open it', 'a list marker "1." at line 2, column 1'],
      ['See [the docs](https://x.test/d) now', 'a link "[the docs](https://x.test/d)" at line 1, column 5'],
      ['Run `convai test` then', 'code "`convai test`" at line 1, column 5'],
      ['```\nnpm test\n```', 'code "```\\nnpm test\\n```" at line 1, column 1'],
      ['| a | b |\n|---|---|', 'a table "| a | b |" at line 1, column 1; a table "|---|---|" at line 2, column 1'],
      ['Go to https://example.test/orders/17', 'a URL "https://example.test/orders/17" at line 1, column 7'],
      ['Thanks 👋 and ❤️', 'an emoji "👋" at line 1, column 8; an emoji "❤️" at line 1, column 15'],
    ];
    for (const [text, found] of cases) assert.equal(unspeakable(text).join('; '), found, text);
  });

  it("reads a year or an amount at a line's start as words, and an ordered list's number (1 to 99) as a marker", () => {
    assert.deepEqual(unspeakable('It was founded in\n2025. It grew fast.\n1999) was the year before'), []);
    assert.equal(
      unspeakable('Steps:\n1. Open it\n99) Close it').join('; '),
      'a list marker "1." at line 2, column 1; a list marker "99)" at line 3, column 1',
    );
  });

  it('names a flag, a keycap, a skin tone and a joined sequence as one emoji each, never split', () => {
    const cases: Array<[string, string]> = [
      ['Made in 🇩🇪 and 🇫🇷', 'an emoji "🇩🇪" at line 1, column 9; an emoji "🇫🇷" at line 1, column 18'],
      ['Press 1️⃣ or #⃣', 'an emoji "1️⃣" at line 1, column 7; an emoji "#⃣" at line 1, column 14'],
      ['Nice 👍🏽 ✌🏽', 'an emoji "👍🏽" at line 1, column 6; an emoji "✌🏽" at line 1, column 11'],
      ['Family 👨‍👩‍👧 and 🧑🏽‍💻', 'an emoji "👨‍👩‍👧" at line 1, column 8; an emoji "🧑🏽‍💻" at line 1, column 21'],
      ['Wales 🏴󠁧󠁢󠁷󠁬󠁳󠁿!', 'an emoji "🏴󠁧󠁢󠁷󠁬󠁳󠁿" at line 1, column 7'],
    ];
    for (const [text, found] of cases) assert.equal(unspeakable(text).join('; '), found, text);
    // The quote is cut after 29 characters as a reader counts them: the family is the 29th, whole.
    const [code] = unspeakable(`\`${'a'.repeat(27)}👨‍👩‍👧${'b'.repeat(10)}\``);
    assert.equal(code, `code "\`${'a'.repeat(27)}👨‍👩‍👧…" at line 1, column 1`);
  });

  it('ends on a long answer full of openings that close nothing, or full of findings, with each finding once', function () {
    // Bounded as a whole by the time-out, not by a clock per answer: each took tens of seconds at 100 KB when every
    // opening was searched to the line's end, or every finding compared with every other.
    this.timeout(20_000);
    for (const [unit, findings] of [
      ['**a ', 0],
      ['[a](', 0],
      ['[', 0],
      ['`a', 25_000],
      ['👍', 50_000],
      ['- a\n', 25_000],
    ] as const) {
      assert.equal(unspeakable(unit.repeat(Math.ceil(100_000 / unit.length))).length, findings, unit);
    }
  });

  it('cuts a long quote to a readable length', () => {
    const [found] = unspeakable(`Read https://example.test/${'a'.repeat(60)}`);
    assert.match(found ?? '', /^a URL "https:\/\/example\.test\/a{8,}…" at line 1, column 6$/);
  });

  it('speakable and maxWords as assertions: the message names the field, what was found and the count', () => {
    const failures = checkOutput(
      { response: { speakable: true, maxWords: 3 } },
      { response: '**Sure!** See https://x.test' },
    );
    assert.deepEqual(
      failures.map((f) => f.message),
      [
        'response: not speakable: emphasis "**Sure!**" at line 1, column 1; a URL "https://x.test" at line 1, column 15',
        'response: has 4 words, more than maxWords 3',
      ],
    );
    assert.deepEqual(
      checkOutput({ response: { speakable: true, maxWords: 6 } }, { response: "It's 10:30 and costs $5." }),
      [],
    );
  });

  it('counts words as a listener hears them', () => {
    assert.equal(wordCount("It's 3.5 km — about 10:30, isn't it?"), 7);
    assert.equal(wordCount('  '), 0);
  });

  it('names what a spoken assertion cannot take', () => {
    assert.deepEqual(
      expectationProblems({ speakable: false, maxWords: 2.5 }, true).map((p) => p.message),
      [
        'speakable takes true; leave it out to allow Markdown, URLs and emoji',
        'maxWords takes a whole number of words',
      ],
    );
  });
});
