/** A small deterministic generator (an LCG, glibc's constants), so that a seed reproduces a suite's cases. */
export function seededRandom(seed: number): () => number {
  let a = Math.abs(Math.floor(seed)) % 2147483648;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
}
