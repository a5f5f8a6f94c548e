/**
 * The real servers' recorded answers to the corpus, one file per Kubernetes version
 * (`recorded-v1.35.4.json`, `recorded-v1.36.3.json`, ...): listing and reading them, and writing a
 * new recording from a run against a real cluster (the lane's corpus test with `CORPUS_RECORD=1`,
 * on the version `TAILOR_KUBERNETES_VERSION` picked).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Answer } from './corpus-runner.ts';

/** A recording: how it was captured, and each entry's answer by id. */
export interface Recording {
  captured: { command: string; at: string; server: string; note: string };
  answers: Record<string, Answer>;
}

const DIRECTORY = new URL('./', import.meta.url);
const NAME = /^recorded-(v\d+\.\d+\.\d+)\.json$/;

/** The file of a version's recording, e.g. `v1.36.3` -> recorded-v1.36.3.json beside this module. */
export function recordingPath(gitVersion: string): URL {
  return new URL(`./recorded-${gitVersion}.json`, import.meta.url);
}

/** The versions with a recording, oldest first (e.g. ['v1.35.4', 'v1.36.3', 'v1.37.2']). */
export function recordedVersions(): string[] {
  const minorPatch = (v: string) => v.slice(1).split('.').map(Number);
  return readdirSync(DIRECTORY)
    .map((f) => NAME.exec(f)?.[1])
    .filter((v): v is string => v !== undefined)
    .sort((a, b) => {
      const [x, y] = [minorPatch(a), minorPatch(b)];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    });
}

/** Reads a version's recording; a clear error when it is missing or malformed. */
export function readRecording(gitVersion: string): Recording {
  const path = recordingPath(gitVersion);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`no corpus recording for ${gitVersion} (${path.pathname}); record one on that version: CORPUS_RECORD=1 TAILOR_KUBERNETES_VERSION=${gitVersion} npm run test:real-cluster corpus`, { cause: err });
  }
  const parsed = JSON.parse(text) as Recording;
  if (!parsed.answers || !parsed.captured) throw new Error(`the corpus recording ${path.pathname} has no "captured" or "answers"`);
  return parsed;
}

/** Writes a version's recording (keys in corpus order). */
export function writeRecording(gitVersion: string, recording: Recording): void {
  writeFileSync(recordingPath(gitVersion), `${JSON.stringify(recording, null, 2)}\n`);
}
