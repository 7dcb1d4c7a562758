/**
 * What the extension needs once a variant lab opens or a variant is applied, kept by its bundle in a file of its own
 * (dist/trials.js, beside the trial engine whose copies every variant is) that register.ts requires at first use: the panel, the matrix run with its trial copies, and
 * Apply Variant. The suite engine it runs cases with is dist/suite-engine.js's, and the modules it shares with the
 * rest of the extension it takes from dist/extension.js (scripts/build.mjs).
 */
export { VariantLabPanel } from './panel';
export { showAsked, showProgrammatic } from './show';
export { applyAsked, applyProgrammatic } from './apply';
