// Level sets of Eq 5-9: MERGE's approximation factor over r = λ/f and c = f_s/f
// (thesis Fig 5.6; spec §1.2).
import { number } from '../ui/format.js';

export default {
  id: 'level-sets',
  group: 'theory',
  title: "MERGE's factor: level sets of Eq 5-9",
  card: 'Where MERGE comes closest to the best policy: the contour map of its approximation factor, with its minimum 0.927.',
  source: 'thesis Fig 5.6',
  lede: `<p>MERGE follows, on each server, the order of per-page equally spaced visits. How close it comes to the best freshness any
    policy could reach at the same revisit frequencies depends on r = λ/f (how often the page changes per revisit) and c = f<sub>s</sub>/f
    (how many requests its server gets per revisit of the page). The thesis found one minimum by local search, above 0.927.
    Hover to read the factor.</p>`,
  panels: [
    {
      id: 'level-sets',
      heading: 'Level sets of Eq 5-9',
      keyFields: ['r_max', 'c_max', 'highlight_below'],
      auto: true,
      fields: [
        { key: 'r_min', label: 'r from', kind: 'number', help: 'r = λ/f > 0' },
        { key: 'r_max', label: 'r to', kind: 'number', help: 'up to 10⁴' },
        { key: 'log_r', label: 'log scale for r', kind: 'bool' },
        { key: 'c_min', label: 'c from', kind: 'number', help: 'c = f_s/f ≥ 1' },
        { key: 'c_max', label: 'c to', kind: 'number', help: 'up to 10⁴' },
        { key: 'log_c', label: 'log scale for c', kind: 'bool', help: 'spreads the band c < 5 where the factor is lowest' },
        { key: 'levels', label: 'contour levels', kind: 'list', help: 'increasing, in (0, 1]' },
        { key: 'highlight_below', label: 'shade where factor <', kind: 'optional', help: 'empty: no shading' },
        { key: 'grid', label: 'grid points per axis', kind: 'integer', help: '11 to 1001' },
      ],
      hover: (core, r, c) => `r = ${number(r, 4)}, c = ${number(c, 4)}: factor ${core.eq59(r, c).toFixed(6)}`,
    },
  ],
};
