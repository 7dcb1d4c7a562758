import * as assert from 'node:assert/strict';
import {
  placeholderBeingTyped,
  placeholderSpans,
  placeholdersOf,
  promptPlaceholders,
} from '../../src/core/prompt-text';

describe('prompt text', () => {
  it("offers the placeholders of a prompt's texts as parameter names", () => {
    assert.deepEqual(
      promptPlaceholders({
        user_prompt: 'Hi {{customer_name}}, order {{ order_id }}',
        system: 'Speak {{language}}',
        assistant: null,
      }),
      ['customer_name', 'order_id', 'language'],
    );
  });

  it('finds each placeholder with the offsets of its braces and of its name', () => {
    const text = 'Dear {{ name }}, your {{order.id}} and {{ bad name }} {{';
    const spans = placeholderSpans(text);
    assert.deepEqual(
      spans.map((s) => s.name),
      ['name', 'order.id'],
    );
    const [first] = spans;
    assert.ok(first);
    assert.equal(text.slice(first.start, first.end), '{{ name }}');
    assert.equal(text.slice(first.nameStart, first.nameEnd), 'name');
  });

  it('counts offsets in UTF-16 units, as editors do, past emoji and accents', () => {
    const text = '👋 Grüße {{kunde}}';
    const [span] = placeholderSpans(text);
    assert.ok(span);
    assert.equal(text.slice(span.nameStart, span.nameEnd), 'kunde');
  });

  it('lists each name once, in order of first use, across texts', () => {
    assert.deepEqual(placeholdersOf(['{{b}} {{a}}', null, '{{a}} {{c}}', undefined]), ['b', 'a', 'c']);
  });

  it('knows when a placeholder name is being typed, and nowhere else', () => {
    assert.deepEqual(placeholderBeingTyped('Hello {{'), { nameStart: 8, partial: '' });
    assert.deepEqual(placeholderBeingTyped('Hello {{ cust'), { nameStart: 9, partial: 'cust' });
    assert.equal(placeholderBeingTyped('Hello {{name}} '), undefined);
    assert.equal(placeholderBeingTyped('Hello {'), undefined);
    assert.equal(placeholderBeingTyped('Hello {{na me'), undefined);
  });
});
