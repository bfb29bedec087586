/** Prints a command's result: the object as JSON with --json, else `label: value` lines. */
export function printResult(json: boolean, result: Record<string, unknown>, summary: string): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  process.stdout.write(`${summary}\n`);
  for (const [name, value] of Object.entries(result)) {
    process.stdout.write(`  ${name}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}\n`);
  }
}
