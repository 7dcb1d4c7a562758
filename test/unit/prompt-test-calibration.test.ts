import * as assert from 'node:assert/strict';
import { calibrate, calibrationLine, meetsKappa, type LabelOutcome } from '../../src/core/prompt-tests/calibration';

const outcome = (
  expected: LabelOutcome['expected'],
  judged: LabelOutcome['judged'],
  unanimous = true,
): LabelOutcome => ({ expected, judged, unanimous });
const times = (n: number, o: LabelOutcome): LabelOutcome[] => Array.from({ length: n }, () => o);

function near(actual: number | null, expected: number): void {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${String(actual)} is not ${expected}`);
}

describe('prompt tests: judge calibration figures', () => {
  it('computes agreement, TPR, TNR, kappa and consistency as worked by hand', () => {
    // 6 pass labels (judged 5 pass, 1 fail) and 4 fail labels (judged 1 pass, 3 fail); two labels' judgements split.
    // agreement = (5 + 3) / 10 = 0.8; TPR = 5/6; TNR = 3/4.
    // The judge said pass 5 + 1 = 6 times and fail 1 + 3 = 4 times; the labels are 6 pass and 4 fail.
    // chance agreement = (6·6 + 4·4) / 10² = 52/100 = 0.52; kappa = (0.8 − 0.52) / (1 − 0.52) = 0.28 / 0.48 = 7/12.
    // consistency = 8 unanimous / 10 = 0.8.
    const figures = calibrate([
      ...times(4, outcome('pass', 'pass')),
      outcome('pass', 'pass', false),
      outcome('pass', 'fail'),
      outcome('fail', 'pass', false),
      ...times(3, outcome('fail', 'fail')),
    ]);
    assert.equal(figures.labels, 10);
    near(figures.agreement, 0.8);
    near(figures.tpr, 5 / 6);
    near(figures.tnr, 0.75);
    near(figures.kappa, 7 / 12);
    near(figures.consistency, 0.8);
    assert.equal(meetsKappa(figures, 0.6), false, '0.583 is below 0.6');
    assert.equal(meetsKappa(figures, 0.5), true);
    assert.equal(
      calibrationLine(figures, 0.6),
      'agreement 80%, TPR 83%, TNR 75%, kappa 0.58 (needs 0.60), consistency 80%',
    );
  });

  it('counts an unreadable answer against agreement, TPR and consistency, as a verdict no label has', () => {
    // 2 pass labels (judged pass, unreadable) and 2 fail labels (judged fail, fail).
    // agreement = 3/4; TPR = 1/2; TNR = 2/2 = 1; consistency = 3/4 (an unreadable judgement agreed with nothing).
    // The judge: pass 1, fail 2, unreadable 1; the labels: pass 2, fail 2, unreadable 0.
    // chance agreement = (2·1 + 2·2 + 0·1) / 4² = 6/16 = 0.375; kappa = (0.75 − 0.375) / (1 − 0.375) = 0.375 / 0.625 = 0.6.
    const figures = calibrate([
      outcome('pass', 'pass'),
      outcome('pass', 'unreadable', false),
      outcome('fail', 'fail'),
      outcome('fail', 'fail'),
    ]);
    near(figures.agreement, 0.75);
    near(figures.tpr, 0.5);
    near(figures.tnr, 1);
    near(figures.kappa, 0.6);
    near(figures.consistency, 0.75);
    assert.equal(meetsKappa(figures, 0.6), true, 'kappa equal to minKappa meets it');
  });

  it('reports TPR as null without a pass label, and a one-sided judge with kappa 0', () => {
    // 3 fail labels, judged fail, fail, pass: TPR has no pass label to divide by (null, shown n/a), TNR = 2/3.
    // chance agreement = (0·1 + 3·2) / 3² = 6/9; agreement = 2/3, so kappa = (2/3 − 2/3) / (1 − 2/3) = 0.
    const figures = calibrate([outcome('fail', 'fail'), outcome('fail', 'fail'), outcome('fail', 'pass')]);
    assert.equal(figures.tpr, null);
    near(figures.tnr, 2 / 3);
    near(figures.kappa, 0);
    assert.match(calibrationLine(figures, 0.6), /TPR n\/a, TNR 67%, kappa 0\.00/);
  });

  it('gives kappa 1 when the judge agrees with every label of both kinds, and −1 when it contradicts every one', () => {
    // 2 pass, 2 fail, all as labelled: chance = (2·2 + 2·2) / 16 = 0.5; kappa = (1 − 0.5) / 0.5 = 1.
    near(
      calibrate([outcome('pass', 'pass'), outcome('pass', 'pass'), outcome('fail', 'fail'), outcome('fail', 'fail')])
        .kappa,
      1,
    );
    // All reversed: agreement 0, chance = (2·2 + 2·2) / 16 = 0.5; kappa = (0 − 0.5) / 0.5 = −1.
    near(
      calibrate([outcome('pass', 'fail'), outcome('pass', 'fail'), outcome('fail', 'pass'), outcome('fail', 'pass')])
        .kappa,
      -1,
    );
  });

  it('leaves kappa null when chance alone agrees fully: every label pass and every verdict pass (0/0)', () => {
    // chance agreement = (3·3 + 0·0) / 3² = 1, agreement = 1: (1 − 1) / (1 − 1) is undefined; the file cannot pass on it.
    const figures = calibrate(times(3, outcome('pass', 'pass')));
    assert.equal(figures.kappa, null);
    near(figures.agreement, 1);
    assert.equal(figures.tnr, null);
    assert.equal(meetsKappa(figures, 0), false, 'an undefined kappa meets no minKappa');
  });

  it('has no figure at all when nothing was weighed', () => {
    assert.deepEqual(calibrate([]), {
      labels: 0,
      agreement: null,
      tpr: null,
      tnr: null,
      kappa: null,
      consistency: null,
    });
  });
});
