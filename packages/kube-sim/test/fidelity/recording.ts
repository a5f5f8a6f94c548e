/**
 * The real server's recorded answers to the corpus (`recorded-v1.35.4.json`): reading them, and
 * writing a new recording from a run against a real cluster (the lane's corpus test with
 * `CORPUS_RECORD=1`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Answer } from './corpus-runner.ts';

/** The recording file, beside this module. */
export const RECORDING_PATH = new URL('./recorded-v1.35.4.json', import.meta.url);

/** A recording: how it was captured, and each entry's answer by id. */
export interface Recording {
  captured: { command: string; at: string; server: string; note: string };
  answers: Record<string, Answer>;
}

/** Reads the recording; a clear error when it is missing or malformed. */
export function readRecording(): Recording {
  let text: string;
  try {
    text = readFileSync(RECORDING_PATH, 'utf8');
  } catch (err) {
    throw new Error(`the corpus recording ${RECORDING_PATH.pathname} cannot be read`, { cause: err });
  }
  const parsed = JSON.parse(text) as Recording;
  if (!parsed.answers || !parsed.captured) throw new Error(`the corpus recording ${RECORDING_PATH.pathname} has no "captured" or "answers"`);
  return parsed;
}

/** Writes a recording (keys in corpus order). */
export function writeRecording(recording: Recording): void {
  writeFileSync(RECORDING_PATH, `${JSON.stringify(recording, null, 2)}\n`);
}
