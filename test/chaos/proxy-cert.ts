/**
 * A serving certificate for the chaos lane's API proxy (api-fault-proxy.ts), signed by the lane's
 * cluster CA, so that Tailor's pods, which trust that CA through their service account's ca.crt,
 * accept the proxy as their API server. The CA's key is ECDSA, which Node cannot sign certificates
 * with on its own: openssl does it (Debian's, as the lane's up.sh uses).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function openssl(args: readonly string[]): void {
  const run = spawnSync('openssl', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
}

/** A key and a certificate for `ips` (serverAuth, one day), signed by the CA in `pki` (ca.crt, ca.key); PEM. */
export function proxyCertificate(pki: string, work: string, ips: readonly string[]): { cert: string; key: string } {
  const [key, csr, cert, ext] = ['proxy.key', 'proxy.csr', 'proxy.crt', 'proxy.ext'].map((f) => join(work, f)) as [string, string, string, string];
  writeFileSync(ext, `subjectAltName=${ips.map((ip) => `IP:${ip}`).join(',')}\nextendedKeyUsage=serverAuth\n`);
  openssl([
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-subj',
    '/CN=tailor-chaos-api-proxy',
    '-out',
    csr,
  ]);
  // -set_serial: the CA's own serial file (ca.srl) is the lane's, not ours to advance.
  const serial = `0x${Date.now().toString(16)}`;
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    join(pki, 'ca.crt'),
    '-CAkey',
    join(pki, 'ca.key'),
    '-set_serial',
    serial,
    '-days',
    '1',
    '-extfile',
    ext,
    '-out',
    cert,
  ]);
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}
