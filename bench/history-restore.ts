export async function benchRestore(): Promise<number> {
  return Number.NaN;
}
