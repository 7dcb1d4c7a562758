/**
 * The variant lab page's markup: a fixed frame with no service text in it. The page's script
 * (media/variant-lab.js) fills the table with text nodes only, so a case's or a variant's name, or an answer, can
 * never become markup.
 */
import { webviewPage, type PageResources } from '../shared/webview-page';

export function labPage(resources: PageResources): string {
  return webviewPage(
    'Variant Lab',
    `<header>
  <h1 id="title">Variant Lab</h1>
  <p id="note"></p>
</header>
<main>
  <p id="status" role="status">Running the variants…</p>
  <div class="scroll" id="scroll" tabindex="-1">
    <table id="matrix" hidden>
      <caption class="visually-hidden">Each case's pass rate on the base and on each variant; a cell opens its run</caption>
      <thead><tr id="heads"><th scope="col" class="case-head">Case</th></tr></thead>
      <tbody id="rows"></tbody>
    </table>
  </div>
  <section class="legend" aria-labelledby="legend-heading">
    <h2 id="legend-heading">How to read it</h2>
    <ul>
      <li>A cell is one case on one version of the prompt: passes of answered runs, the 95% interval of that rate, and the runs' latency (median p50, 95th percentile p95). Errored runs are counted apart, never as failures. Click a cell, or press Enter on it, to open its run.</li>
      <li>A column's header pools its cases. <strong>better</strong> or <strong>worse</strong> means a difference from the base at p &lt; 0.05 (two-sided Fisher exact test); <strong>same</strong> means no difference was shown on these runs, not that there is none: raise the cases' <code>repeat</code> and run again to find a small one.</li>
      <li>Overlapping intervals are no evidence of a difference. <strong>Apply</strong> writes a variant's fields into the prompt's document as unsaved edits; try them with a trial before you save.</li>
    </ul>
  </section>
</main>`,
    resources,
  );
}
