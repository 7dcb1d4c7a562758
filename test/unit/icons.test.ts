import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const media = path.join(__dirname, '..', '..', '..', 'media');

describe("the extension's icon", () => {
  it("has a dark-theme copy for the results panel's tab that differs only in its colour", () => {
    // A tab draws its icon as an image, where currentColor is black.
    const icon = fs.readFileSync(path.join(media, 'convai.svg'), 'utf8');
    const dark = fs.readFileSync(path.join(media, 'convai-dark.svg'), 'utf8');
    assert.ok(icon.includes('currentColor'));
    assert.equal(
      dark,
      icon.replaceAll('currentColor', '#C5C5C5'),
      "make it with: sed 's/currentColor/#C5C5C5/g' media/convai.svg > media/convai-dark.svg",
    );
  });
});
