/**
 * The prompt test suite that `npm start` puts beside the sample tenant, for
 * step 4 of the README's tour: scripts/start.mjs writes it, and the UI test
 * that follows that step (and takes its picture) writes the same text, so
 * the two cannot drift apart. Its first case expects a plain value, which is
 * compared with equals: VS Code shows a failed equals as a diff.
 */
import { suiteTemplate } from '../../src/core/prompt-tests/template';

export const SAMPLE_SUITE_FILE = 'order-triage.prompttest.json';

/** The case that the tour fails on purpose. */
export const TOUR_CASE = 'fills in the placeholders';

/**
 * The tour's edit of the expected `altered_prompt` (the prompt's user_prompt with the case's prompt_params filled
 * in): `from` occurs once in the file, and after the edit the expected and the actual text differ only there.
 */
export const TOUR_EDIT = { from: 'from Ada', to: 'from Bob' } as const;

/** The suite's text for the sample tenant (1) on the connection of that name. */
export function sampleSuiteText(connection: string): string {
  const question = 'Where is my order?';
  return suiteTemplate({
    target: { connection, tenantId: 1 },
    segment: 'ai_prompts',
    name: 'Order Triage',
    cases: [
      {
        name: TOUR_CASE,
        prompt_text: question,
        prompt_params: { customer_name: 'Ada', order_id: 'A-1042', message: question },
        expect: { altered_prompt: `Classify this message ${TOUR_EDIT.from} about order A-1042: ${question}` },
      },
      // An AI's answer varies between runs: this case is weighed over five, and says how sure its verdict is.
      {
        name: 'answers briefly, to be read aloud',
        prompt_text: 'Hello',
        expect: { response: { speakable: true, maxWords: 20 } },
        repeat: 5,
        minPassRate: 0.8,
      },
    ],
  });
}
