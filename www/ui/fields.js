// Form fields several views share, written once.

/** How a simulated run counts freshness (spec §1.2): the expected fresh time of each
 * interval between visits, or each page's Poisson changes drawn one by one. */
export const ESTIMATOR_FIELD = {
  key: 'estimator',
  label: 'freshness estimator',
  kind: 'select',
  options: [
    ['expected', 'expected value (low variance)'],
    ['exact', 'exact Poisson changes'],
  ],
};
