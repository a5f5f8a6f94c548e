/**
 * Reads a file named on the command line as text; `-` is standard input, as kubectl's `-f -`.
 */
import { readFile } from 'node:fs/promises';

/** The name `-` stands for standard input. */
export const STANDARD_INPUT = '-';

/** The text of `file`, or of standard input for `-`. */
export async function readInput(file: string): Promise<string> {
  if (file !== STANDARD_INPUT) return readFile(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
