// One page's simulated factor against Eq 5-2 and Eq 5-8 (thesis Thm 5.4, Thm 5.7).
import { number } from '../ui/format.js';

export default {
  id: 'per-page',
  group: 'policies',
  title: 'One page: simulation against the closed forms',
  card: 'Simulated RANDOM and MERGE on one page, with 95 % intervals, against Eq 5-2 and Eq 5-8.',
  source: 'thesis Thm 5.4, Thm 5.7',
  lede: `<p>A page shares its server with others; the server is requested at equally spaced times. Simulated RANDOM should sit on Eq 5-2 and
    simulated MERGE at or above its guarantee, Eq 5-8, within the 95&nbsp;% intervals.</p>`,
  panels: [
    {
      id: 'per-page',
      heading: 'One page: simulated factor against Eq 5-2 and Eq 5-8',
      keyFields: ['c', 'other_pages'],
      auto: true,
      fields: [
        'c', 'x_min', 'x_max', 'log_x', 'other_pages', 'revisits', 'replications', 'policies', 'estimator', 'seed',
      ],
      hover: (_core, x, y) => `x = ${number(x, 4)}, A/A* = ${number(y, 4)}`,
    },
  ],
};
