// One page's simulated factor against Eq 5-2 and Eq 5-8 (thesis Thm 5.4, Thm 5.7).
import { ESTIMATOR_FIELD, FACTOR_RANGE_FIELDS, SEED_FIELD } from '../ui/fields.js';
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
        ...FACTOR_RANGE_FIELDS,
        { key: 'other_pages', label: 'other pages on the server', kind: 'integer', help: 'their frequencies are drawn at random' },
        { key: 'revisits', label: 'revisits per replication', kind: 'integer' },
        { key: 'replications', label: 'replications', kind: 'integer', help: 'for the 95 % intervals' },
        { key: 'policies', label: 'policies simulated', kind: 'choices' },
        ESTIMATOR_FIELD,
        SEED_FIELD,
      ],
      hover: (_core, x, y) => `x = ${number(x, 4)}, A/A* = ${number(y, 4)}`,
    },
  ],
};
