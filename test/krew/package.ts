/** Helpers of the krew tests: pack the plugin into a temporary folder and run kubectl with a PATH. */
import { execFile, execFileSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

/** Runs scripts/krew-package.mjs into `out`: the archive and the filled manifest. */
export function packagePlugin(out: string): { archive: string; manifest: string } {
  execFileSync(process.execPath, ['scripts/krew-package.mjs', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  return { archive: join(out, 'tailor.tar.gz'), manifest: join(out, 'tailor.yaml') };
}

/** The real kubectl with `binDir` first on PATH and no cluster configured. */
export function kubectl(binDir: string, args: string[], kubeconfig: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, PATH: `${binDir}${delimiter}${process.env['PATH'] ?? ''}`, KUBECONFIG: kubeconfig };
  return new Promise((done) => {
    execFile('kubectl', args, { env, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}
