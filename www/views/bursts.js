// Eq 5-11's bound on bursts of n equally spaced request streams (thesis Fig 5.7).
import { number } from '../ui/format.js';

export default {
  id: 'bursts',
  group: 'theory',
  title: 'Bursts on the download channel',
  card: "Why spacing per server keeps the channel smooth: Eq 5-11's bound on a window's excess.",
  source: 'thesis Fig 5.7, Lemma 5.10',
  lede: `<p>Spacing requests evenly per server rather than per page keeps the channel smooth: with n equally spaced streams, the chance
    that any window holds x requests more than expected is below Eq 5-11's bound. With WEBBASE's 5,462 servers, fewer than 10&nbsp;% of
    windows exceed their mean by 160 requests.</p>`,
  panels: [
    {
      id: 'bursts',
      heading: 'Bound on channel bursts, Eq 5-11',
      keyFields: ['n', 'probability'],
      auto: true,
      fields: [
        'n', 'probability', 'x_max', 'log_x', 'probability_floor',
      ],
      hover: (_core, x, y) => `x = ${number(x, 4)}, probability ${number(y, 3)}`,
    },
  ],
};
