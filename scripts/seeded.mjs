// mulberry32: the small seeded generator the scripts' generated files use (a sample or a
// benchmark's input need only be fixed, not of simulation quality: the simulations draw
// from the core's streams).

/** A function returning uniform numbers in [0, 1), fixed by `seed`. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
