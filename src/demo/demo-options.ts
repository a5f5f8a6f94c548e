/**
 * The options of `tailor demo`, checked before anything starts; every error names its flag,
 * e.g. `--duration: invalid duration "soon": ...`.
 */
import { parseDuration } from '../config/duration-option.ts';
import { parseServerVersion, type ServerVersion } from 'kube-sim/server-version';
import { isLogLevel, LOG_LEVELS, type LogLevel } from '../observability/logger.ts';

/** As commander hands them over. */
export interface DemoFlags {
  duration?: string;
  port?: string;
  prometheus?: boolean;
  serverVersion?: string;
  logFile?: string;
  logLevel?: string;
  audit?: boolean;
  auditDir?: string;
}

export interface DemoOptions {
  /** Stop after this long (ms); undefined: until Ctrl-C. */
  durationMs?: number;
  /** Port of /metrics on 127.0.0.1 (0: any free port). */
  metricsPort: number;
  /** False: feed the recommender from the simulator, no Prometheus. */
  prometheus: boolean;
  serverVersion?: ServerVersion;
  /** Where component logs go (default: a file in the demo's temp directory, removed at exit). */
  logFile?: string;
  logLevel: LogLevel;
  /** False (`--no-audit`): no audit report at the end. */
  audit: boolean;
  /** Where the closing audit report goes (default: a new folder under the temp directory, kept). */
  auditDir?: string;
}

/** A flag with a bad value. */
export class DemoOptionError extends Error {
  constructor(
    readonly flag: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${flag}: ${message}`, options);
    this.name = 'DemoOptionError';
  }
}

/** Validates the flags. Worked example: `{duration: '90s'}` -> durationMs 90000, metricsPort 0. */
export function parseDemoOptions(flags: DemoFlags): DemoOptions {
  const options: DemoOptions = { metricsPort: 0, prometheus: flags.prometheus !== false, logLevel: 'info', audit: flags.audit !== false };
  if (flags.duration !== undefined) {
    let ms: number;
    try {
      ms = parseDuration(flags.duration);
    } catch (err) {
      throw new DemoOptionError('--duration', (err as Error).message, { cause: err });
    }
    if (ms < 1000) throw new DemoOptionError('--duration', `${JSON.stringify(flags.duration)} is shorter than a second`);
    options.durationMs = ms;
  }
  if (flags.port !== undefined) {
    const port = Number(flags.port);
    if (!/^\d+$/.test(flags.port) || port > 65535)
      throw new DemoOptionError('--port', `${JSON.stringify(flags.port)} is not a port number (0-65535; 0 = any free port)`);
    options.metricsPort = port;
  }
  if (flags.serverVersion !== undefined) {
    try {
      options.serverVersion = parseServerVersion(flags.serverVersion);
    } catch (err) {
      throw new DemoOptionError('--server-version', (err as Error).message, { cause: err });
    }
  }
  if (flags.logFile !== undefined) {
    if (flags.logFile.trim() === '') throw new DemoOptionError('--log-file', 'needs a file name');
    options.logFile = flags.logFile;
  }
  if (flags.auditDir !== undefined) {
    if (flags.auditDir.trim() === '') throw new DemoOptionError('--audit-dir', 'needs a folder name');
    if (!options.audit) throw new DemoOptionError('--audit-dir', 'cannot be used with --no-audit');
    options.auditDir = flags.auditDir;
  }
  if (flags.logLevel !== undefined) {
    if (!isLogLevel(flags.logLevel)) throw new DemoOptionError('--log-level', `${JSON.stringify(flags.logLevel)}: expected one of ${LOG_LEVELS.join(', ')}`);
    options.logLevel = flags.logLevel;
  }
  return options;
}
