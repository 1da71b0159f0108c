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
        'r_min', 'r_max', 'log_r', 'c_min', 'c_max', 'log_c', 'levels', 'highlight_below', 'grid',
      ],
      hover: (core, r, c) => `r = ${number(r, 4)}, c = ${number(c, 4)}: factor ${core.eq59(r, c).toFixed(6)}`,
    },
  ],
};
