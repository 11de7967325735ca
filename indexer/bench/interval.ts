/**
 * How sure a ratio of two builds' timings is: a percentile bootstrap over interleaved rounds.
 * Round i of one build ran beside round i of the other, so rounds are resampled as pairs (what
 * made a round slow, the machine's load, moves both); each resample gives
 * median(a) / median(b). Seeded, so that the same runs always print the same interval.
 */
import {median} from './lighthouse.ts';

/** A small seeded generator (mulberry32): the same sequence for the same seed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The 95 % interval of median(a) / median(b) over rounds resampled in pairs (a[i] with b[i]);
 * null when the rounds do not pair up, when there are fewer than 3, or when a median of b is 0.
 */
export function ratioInterval(a: readonly number[], b: readonly number[], resamples = 4000, seed = 47): [number, number] | null {
  const n = a.length;
  if (n !== b.length || n < 3) return null;
  const random = mulberry32(seed);
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const pickedA: number[] = [];
    const pickedB: number[] = [];
    for (let i = 0; i < n; i++) {
      const k = Math.floor(random() * n);
      pickedA.push(a[k]!);
      pickedB.push(b[k]!);
    }
    const below = median(pickedB);
    if (below <= 0) return null;
    ratios.push(median(pickedA) / below);
  }
  ratios.sort((x, y) => x - y);
  return [ratios[Math.floor(resamples * 0.025)]!, ratios[Math.ceil(resamples * 0.975) - 1]!];
}

/** True when the interval holds 1 (or there is none): the two builds cannot be told apart. */
export function holdsOne(interval: [number, number] | null): boolean {
  return interval === null || (interval[0] <= 1 && interval[1] >= 1);
}
