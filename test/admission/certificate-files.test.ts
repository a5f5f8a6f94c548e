import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CertificateFiles, loadCertificateFiles, type LoadedCertificates } from '../../src/admission/certificate-files.ts';
import { CredentialsError } from '../../src/admission/serving-credentials.ts';
import { createCa, issueServingCertificate } from 'kube-basics/self-signed-certificates';
import { silentLogger } from '../../src/observability/logger.ts';

const NOW = Date.UTC(2026, 0, 1);

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tailor-certs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`condition not met within ${ms} ms`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

const ca = createCa('test-ca', NOW);
const first = issueServingCertificate(ca, ['127.0.0.1'], NOW);
const second = issueServingCertificate(ca, ['127.0.0.1'], NOW);

for (const mode of ['fs.watch', 'polling'] as const) {
  test(`a rotated pair is picked up by ${mode}; a half-written rotation keeps the old pair`, async (t) => {
    const dir = tempDir(t);
    const options = {
      certFile: join(dir, 'tls.crt'),
      keyFile: join(dir, 'tls.key'),
      caFile: join(dir, 'ca.crt'),
      pollIntervalMs: mode === 'polling' ? 50 : 60_000,
      watch: mode === 'fs.watch',
    };
    writeFileSync(options.certFile, first.cert);
    writeFileSync(options.keyFile, first.key);
    writeFileSync(options.caFile, ca.cert);
    const seen: LoadedCertificates[] = [];
    const outcomes: string[] = [];
    const files = new CertificateFiles(
      options,
      (l) => seen.push(l),
      silentLogger(),
      (o) => outcomes.push(o),
    );
    files.start();
    t.after(() => files.stop());
    assert.equal(files.loaded.credentials.cert, first.cert);

    // Only the certificate is new: it does not match the old key, so nothing changes yet.
    writeFileSync(options.certFile, second.cert);
    await until(() => outcomes.includes('error'), 3000);
    assert.equal(seen.length, 0);
    assert.equal(files.loaded.credentials.cert, first.cert);

    writeFileSync(options.keyFile, second.key);
    await until(() => seen.length === 1, 3000);
    assert.equal(seen[0]!.credentials.cert, second.cert);
    assert.equal(seen[0]!.credentials.key, second.key);
    assert.equal(seen[0]!.caPem, ca.cert);
    assert.deepEqual(outcomes, ['error', 'ok']);
  });
}

test('files that cannot be served are refused at start with the file names', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'tls.crt'), first.cert);
  writeFileSync(join(dir, 'tls.key'), second.key);
  assert.throws(
    () => loadCertificateFiles({ certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key'), pollIntervalMs: 1000 }),
    (err: unknown) => err instanceof CredentialsError && /tls\.crt and .*tls\.key/.test(err.message),
  );
  assert.throws(
    () => loadCertificateFiles({ certFile: join(dir, 'missing.crt'), keyFile: join(dir, 'tls.key'), pollIntervalMs: 1000 }),
    /cannot read .*missing\.crt/,
  );
});

test('a certificate not signed by the CA file is refused', (t) => {
  const dir = tempDir(t);
  const other = createCa('other-ca', NOW);
  writeFileSync(join(dir, 'tls.crt'), first.cert);
  writeFileSync(join(dir, 'tls.key'), first.key);
  writeFileSync(join(dir, 'ca.crt'), other.cert);
  assert.throws(
    () => loadCertificateFiles({ certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key'), caFile: join(dir, 'ca.crt'), pollIntervalMs: 1000 }),
    /tls\.crt is not signed by .*ca\.crt/,
  );
  writeFileSync(join(dir, 'ca.crt'), ca.cert);
  assert.equal(
    loadCertificateFiles({ certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key'), caFile: join(dir, 'ca.crt'), pollIntervalMs: 1000 }).caPem,
    ca.cert,
  );
});
