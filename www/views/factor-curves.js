// RANDOM's and MERGE's approximation factors against x = λ/f (thesis Fig 5.2, Eq 5-2,
// Eq 5-8; spec §1.1).
import { number } from '../ui/format.js';

export default {
  id: 'factor-curves',
  group: 'theory',
  title: 'RANDOM against MERGE',
  card: "RANDOM's guarantee (at least 0.77 of the best) against MERGE's, page by page.",
  source: 'thesis Fig 5.2, Eq 5-2, Eq 5-8',
  lede: `<p>RANDOM draws each request's page in proportion to its frequency. Corollary 5.5 bounds its factor for every server: the minimum,
    about 0.77, is at x = λ/f ≈ 1.793. For a given c the exact RANDOM factor (Eq 5-2) sits above that bound, and MERGE's guarantee
    (Eq 5-8) above both.</p>`,
  panels: [
    {
      id: 'factor-curves',
      heading: 'Approximation factors against x = λ/f',
      keyFields: ['c', 'x_max'],
      auto: true,
      fields: [
        'c', 'x_min', 'x_max', 'log_x',
      ],
      hover: (_core, x, y) => `x = ${number(x, 4)}, A/A* = ${number(y, 4)}`,
    },
  ],
};
