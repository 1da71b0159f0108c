// The theory view (spec §1.1): level sets of Eq 5-9, the RANDOM and MERGE factors,
// channel bursts, and the certified bound for Conjecture 5.9.
import { ExperimentPanel } from '../ui/panel.js';

const fmt = (v, digits = 4) => (Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(digits - 1) : Number(v.toPrecision(digits)).toString());

const levelSets = {
  id: 'level-sets',
  keyFields: ['r_max', 'c_max', 'highlight_below'],
  name: 'eq59-level-sets',
  experiment: 'level_sets',
  label: 'Level sets of Eq 5-9',
  auto: true,
  fields: [
    { key: 'r_min', label: 'r from', kind: 'number', help: 'r = λ/f > 0' },
    { key: 'r_max', label: 'r to', kind: 'number', help: 'up to 10⁴' },
    { key: 'log_r', label: 'log scale for r', kind: 'bool' },
    { key: 'c_min', label: 'c from', kind: 'number', help: 'c = f_s/f ≥ 1' },
    { key: 'c_max', label: 'c to', kind: 'number', help: 'up to 10⁴' },
    { key: 'log_c', label: 'log scale for c', kind: 'bool' },
    { key: 'levels', label: 'contour levels', kind: 'list', help: 'increasing, in (0, 1]' },
    { key: 'highlight_below', label: 'shade where factor <', kind: 'optional', help: 'empty: no shading' },
    { key: 'grid', label: 'grid points per axis', kind: 'integer', help: '11 to 1001' },
  ],
  hover: (core, r, c) => `r = ${fmt(r)}, c = ${fmt(c)}: factor ${core.eq59(r, c).toFixed(6)}`,
};

const factors = {
  id: 'factors',
  keyFields: ['c', 'x_max'],
  name: 'random-merge-factors',
  experiment: 'factor_curves',
  label: 'RANDOM and MERGE approximation factors',
  auto: true,
  fields: [
    { key: 'c', label: 'c = f_s/f', kind: 'number', help: 'server ÷ page frequency, ≥ 1' },
    { key: 'x_min', label: 'x from', kind: 'number', help: 'x = λ/f > 0' },
    { key: 'x_max', label: 'x to', kind: 'number' },
    { key: 'log_x', label: 'log scale for x', kind: 'bool' },
  ],
  hover: (_core, x, y) => `x = ${fmt(x)}, A/A* = ${fmt(y)}`,
};

const bursts = {
  id: 'bursts',
  keyFields: ['n', 'probability'],
  name: 'channel-bursts',
  experiment: 'bursts',
  label: 'Bound on channel bursts, Eq 5-11',
  auto: true,
  fields: [
    { key: 'n', label: 'n (elements)', kind: 'list', help: 'pages or servers, e.g. 5462' },
    { key: 'probability', label: 'mark probability', kind: 'number', help: 'in (0, 1)' },
    { key: 'x_max', label: 'x up to', kind: 'number' },
    { key: 'log_x', label: 'log scale for x', kind: 'bool' },
    { key: 'probability_floor', label: 'lowest probability shown', kind: 'number' },
  ],
  hover: (_core, x, y) => `x = ${fmt(x)}, probability ${fmt(y, 3)}`,
};

const proofRows = (result) =>
  result.tails
    .map((t) => `<tr><td>${t.part}</td><td class="num">≥ ${t.bound.toFixed(10)}</td><td>${t.argument}</td></tr>`)
    .join('');

const certify = {
  id: 'certify',
  keyFields: ['tolerance', 'enclosure'],
  name: 'eq59-certificate',
  experiment: 'certify',
  label: 'Certified lower bound for Eq 5-9',
  auto: false,
  action: 'Prove',
  fields: [
    { key: 'r_min', label: 'r from (r₀)', kind: 'number', help: 'small r is covered by argument (A)' },
    { key: 'r_max', label: 'r to (R)', kind: 'number', help: 'large r: argument (B)' },
    { key: 'c_min', label: 'c from', kind: 'number', help: '1 to cover the whole domain' },
    { key: 'c_max', label: 'c to (C)', kind: 'number', help: 'large c: argument (C)' },
    { key: 'tolerance', label: 'tolerance', kind: 'number', help: 'stop when the gap is below' },
    { key: 'max_boxes', label: 'box budget', kind: 'integer', help: 'at most 10,000,000' },
    {
      key: 'enclosure',
      label: 'enclosure',
      kind: 'select',
      options: [
        ['mean_value', 'mean-value form (fast)'],
        ['natural', 'natural interval extension (slow)'],
      ],
    },
  ],
  details(result, element, final) {
    const c = result.config;
    const state = { running: 'running…', converged: 'converged', budget_exhausted: 'stopped at the box budget' }[result.status];
    const region = `r ∈ [${c.r_min}, ${c.r_max}], c ∈ [${c.c_min}, ${c.c_max}]`;
    const theorem =
      result.global_bound === null
        ? `<p class="warning">The region starts at c = ${c.c_min} &gt; 1, so nothing is proved for 1 ≤ c &lt; ${c.c_min}: no statement about the whole domain follows.</p>`
        : `<p class="theorem"><strong>Theorem.</strong> For every r &gt; 0 and c ≥ 1, Eq 5-9 ≥ <strong>${result.global_bound.toFixed(10)}</strong>${
            result.global_bound > 0.927 ? ' &gt; 0.927: Conjecture 5.9 holds.' : ' (below 0.927: this run does not prove the conjecture; tighten the tolerance or raise the budget).'
          }</p>`;
    const loose = result.status === 'budget_exhausted' ? '<p class="warning">The gap did not close within the box budget: the bound is proved but not tight.</p>' : '';
    element.innerHTML = `
      <h3>What was proved ${final ? '' : '(so far)'}</h3>
      <p>On the compact region ${region}: Eq 5-9 ≥ <strong>${result.lower_bound.toFixed(10)}</strong>
         (${state} after ${result.boxes_split.toLocaleString('en')} boxes, ${result.boxes_open.toLocaleString('en')} open).
         The factor is at most ${result.upper_bound.toFixed(10)} at r = ${fmt(result.best_r, 7)}, c = ${fmt(result.best_c, 7)},
         so the region's minimum lies between the two.</p>
      ${loose}
      <table class="proof"><caption>Outside the region: the written argument, evaluated with outward rounding</caption>
        <thead><tr><th scope="col">part of the domain</th><th scope="col">bound</th><th scope="col">argument</th></tr></thead>
        <tbody>${proofRows(result)}</tbody></table>
      ${final ? theorem : ''}
      <p class="fineprint">Assumption: the libm exp and expm1 (the same code natively and in the browser) err by less than 2 ulps;
        every result is widened by that much, and the test suite measures the actual error against high-precision references.</p>`;
  },
};

export function theoryView(root, core, client, state) {
  for (const spec of [levelSets, factors, bursts, certify]) {
    new ExperimentPanel(root.querySelector(`#${spec.id}`), spec, core, client, state);
  }
}
