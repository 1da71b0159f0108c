// A certified lower bound for Eq 5-9 by interval branch and bound (Conjecture 5.9,
// beyond the thesis; spec §1.2).
import { bound, number, integer } from '../ui/format.js';

const proofRows = (result) =>
  result.tails.map((t) => `<tr><td>${t.part}</td><td class="num">≥ ${bound(t.bound, 'lower')}</td><td>${t.argument}</td></tr>`).join('');

const STATE = { running: 'running', converged: 'converged', budget_exhausted: 'stopped at the box budget' };

export default {
  id: 'certify',
  group: 'theory',
  title: 'Proving Conjecture 5.9',
  card: "MERGE's 0.927 proved: interval arithmetic and branch and bound over the whole domain.",
  source: 'beyond the thesis',
  lede: `<p>The thesis asked for "a more rigorous evaluation of Eq 5-9". Interval arithmetic with outward rounding bounds the factor on whole
    boxes of the (r, c) plane; branch and bound splits the boxes that could hold the minimum until the proved bound meets the best value
    found. A written argument covers the rest of the domain (small r, large r, large c).</p>`,
  panels: [
    {
      id: 'certify',
      heading: 'A certified lower bound for Eq 5-9',
      keyFields: ['tolerance', 'enclosure'],
      auto: false,
      action: 'Prove',
      fields: [
        'r_min', 'r_max', 'c_min', 'c_max', 'tolerance', 'max_boxes', 'enclosure',
      ],
      details(result, element, phase) {
        const c = result.config;
        const final = phase === 'final';
        const state = phase === 'cancelled' ? 'cancelled by you' : STATE[result.status];
        const region = `r ∈ [${c.r_min}, ${c.r_max}], c ∈ [${c.c_min}, ${c.c_max}]`;
        const theorem =
          result.global_bound === null
            ? `<p class="warning">The region starts at c = ${c.c_min} &gt; 1, so nothing is proved for 1 ≤ c &lt; ${c.c_min}: no statement about the whole domain follows.</p>`
            : `<p class="theorem"><strong>Theorem.</strong> For every r &gt; 0 and c ≥ 1, Eq 5-9 ≥ <strong>${bound(result.global_bound, 'lower')}</strong>${
                result.global_bound > 0.927 ? ' &gt; 0.927: Conjecture 5.9 holds.' : ' (below 0.927: this run does not prove the conjecture; tighten the tolerance or raise the budget).'
              }</p>`;
        const loose = result.status === 'budget_exhausted' ? '<p class="warning">The gap did not close within the box budget: the bound is proved but not tight.</p>' : '';
        const stopped = phase === 'cancelled' ? '<p class="warning">Cancelled: the bound below holds for the region, but the search stopped before the gap closed.</p>' : '';
        element.innerHTML = `
          <h3>What was proved${final ? '' : phase === 'cancelled' ? ' before you cancelled' : ' so far'}</h3>
          ${stopped}
          <p>On the compact region ${region}: Eq 5-9 ≥ <strong>${bound(result.lower_bound, 'lower')}</strong>
             (${state} after ${integer(result.boxes_split)} boxes, ${integer(result.boxes_open)} open).
             The factor is at most ${bound(result.upper_bound, 'upper')} at r = ${number(result.best_r, 7)}, c = ${number(result.best_c, 7)},
             so the region's minimum lies between the two.</p>
          ${loose}
          <table class="proof"><caption>Outside the region: the written argument, evaluated with outward rounding</caption>
            <thead><tr><th scope="col">part of the domain</th><th scope="col">bound</th><th scope="col">argument</th></tr></thead>
            <tbody>${proofRows(result)}</tbody></table>
          ${final ? theorem : ''}
          <p class="fineprint">Assumption: the libm exp and expm1 (the same code natively and in the browser) err by less than 2 ulps;
            every result is widened by that much, and the test suite measures the actual error against high-precision references.</p>`;
      },
    },
  ],
};
