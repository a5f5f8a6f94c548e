/**
 * The folder an audit writes to (`tailor audit --output-dir`, `--store dir:`, `tailor demo
 * --audit-dir`), made ready before any history is read, so a bad one fails at once instead of
 * after the reading: an existing folder we may write in, or a new folder created in an existing
 * one. Its parents are never created, as `--output FILE` needs its folder to exist: a mistyped
 * path fails instead of growing a tree. (Node's `mkdir(dir, {recursive: true})` also never returns
 * for `/proc/nope`: the kernel answers ENOENT for a parent that exists, and Node retries forever.)
 */
import { constants } from 'node:fs';
import { access, mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The folder cannot be used; the message starts with the flag and the folder. */
export class OutputDirError extends Error {
  override readonly name = 'OutputDirError';
  /** The message says the system error in words: the CLI's one-line message stops here (no raw ENOENT after it). */
  readonly causeInWords = true;
}

function codeOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'a read-only file system',
  ENOTDIR: 'a part of the path is not a folder',
  ENAMETOOLONG: 'the name is too long',
  ENOSPC: 'no space left on the device',
};

/** Why `mkdir(dir)` answered ENOENT, in words: the parent is missing, not a folder, or takes no new folders (/proc). */
async function whyNotCreated(dir: string): Promise<string> {
  const parent = dirname(resolve(dir));
  try {
    const s = await stat(parent);
    return s.isDirectory() ? `no folder can be created in ${parent}` : `${parent} is not a folder`;
  } catch (err) {
    return codeOf(err) === 'ENOENT'
      ? `the folder ${parent} does not exist (only the last folder of the path is created)`
      : (REASONS[codeOf(err) ?? ''] ?? (err as Error).message);
  }
}

/**
 * Makes `dir` ready to write in: creates it when missing (not its parents) and checks that it is a
 * folder this process may write in. `flag` names it in the error, e.g. `--output-dir /proc/nope:
 * cannot create the folder: no folder can be created in /proc`. Returns whether it was created
 * (to remove it again with {@link removeIfCreatedAndEmpty} when nothing was written).
 */
export async function prepareOutputDir(dir: string, flag: string): Promise<{ created: boolean }> {
  const fail = (what: string, why: string, cause: unknown) => new OutputDirError(`${flag} ${dir}: ${what}: ${why}`, { cause });
  let created = false;
  try {
    await mkdir(dir);
    created = true;
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT') throw fail('cannot create the folder', await whyNotCreated(dir), err);
    if (code !== 'EEXIST') throw fail('cannot create the folder', REASONS[code ?? ''] ?? (err as Error).message, err);
    let isDir: boolean;
    try {
      isDir = (await stat(dir)).isDirectory();
    } catch (statErr) {
      throw fail('cannot use the folder', REASONS[codeOf(statErr) ?? ''] ?? (statErr as Error).message, statErr);
    }
    if (!isDir) throw fail('cannot use the folder', 'it is a file, not a folder', err);
  }
  try {
    await access(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    throw fail('cannot write in the folder', REASONS[codeOf(err) ?? ''] ?? (err as Error).message, err);
  }
  return { created };
}

/** Removes a folder {@link prepareOutputDir} created, when nothing was written in it; never fails. */
export async function removeIfCreatedAndEmpty(dir: string, prepared: { created: boolean } | undefined): Promise<void> {
  if (!prepared?.created) return;
  try {
    await rmdir(dir);
  } catch {
    // not empty (something was written after all) or gone: leave it
  }
}
