/**
 * Seeded randomness for the catalog. Everything the sandbox invents must be reproducible from a seed so that
 * a failing test or a benchmark run can be replayed exactly; Math.random would make every run different.
 * The generator itself is the project's one seeded generator (src/shared/seeded-random.ts).
 */
import { hash128, seededRandomFromText } from '../../shared/seeded-random';

export { hash128 };

export class Rng {
  private readonly next: () => number;

  constructor(seed: string) {
    this.next = seededRandomFromText(seed);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Rng.pick called with an empty list');
    return item;
  }

  /** Picks with a bias towards the start of the list (popular artists release more). */
  pickSkewed<T>(items: readonly T[], power = 2): T {
    const item = items[Math.floor(this.next() ** power * items.length)];
    if (item === undefined) throw new Error('Rng.pickSkewed called with an empty list');
    return item;
  }

  /** `count` distinct items in random order (fewer if the list is shorter); partial Fisher-Yates. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    const take = Math.min(count, copy.length);
    for (let i = 0; i < take; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      const chosen = copy[j] as T;
      copy[j] = copy[i] as T;
      copy[i] = chosen;
    }
    return copy.slice(0, take);
  }

  /** Roughly normal (sum of three uniforms), scaled to mean and spread. */
  normal(mean: number, spread: number): number {
    return mean + (this.next() + this.next() + this.next() - 1.5) * spread;
  }
}
