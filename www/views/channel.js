// Requests per window, per-page against per-server spacing, against Eq 5-11's bound
// (thesis Lemma 5.10).
import { number } from '../ui/format.js';

export default {
  id: 'channel',
  group: 'policies',
  title: 'Bursts on the download channel, measured',
  card: 'Requests counted in windows: per-server spacing keeps the channel under Eq 5-11, per-page spacing does not.',
  source: 'thesis Lemma 5.10, Eq 5-11',
  lede: `<p>Requests counted in windows of fixed length: per-page spacing (UNPOLITE) has as many independent phases as pages, per-server
    spacing (MERGE, RANDOM) only as many as servers, so its counts stay much closer to the mean — under the Eq 5-11 bound for its n.</p>`,
  panels: [
    {
      id: 'channel',
      heading: 'Requests per window against Eq 5-11',
      keyFields: ['capacity', 'window_requests'],
      auto: true,
      fields: [
        'capacity', 'window_requests', 'windows',
        { key: 'repository.pages', label: 'pages', help: '' },
        { key: 'repository.servers', label: 'servers', help: '' },
        'politeness_seconds', 'seed',
      ],
      hover: (_core, x, y) => `x = ${number(x, 4)}, share ${number(y, 3)}`,
    },
  ],
};
