/**
 * TLS options against a real HTTPS server on 127.0.0.1 with a self-signed certificate made by
 * openssl: rejected by default, accepted with --ca-file or --insecure-skip-verify.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../src/observability/logger.ts';
import { PrometheusQueryClient } from '../../src/metrics/query-client.ts';
import { PrometheusUnreachableError } from '../../src/metrics/metrics-errors.ts';

let dir: string;
let server: https.Server;
let url: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tailor-tls-'));
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(made.status, 0, made.stderr);
  server = https.createServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

test('an unknown CA is refused as unreachable, naming the TLS problem', async () => {
  const err = await new PrometheusQueryClient({ url, retries: 0 }, silentLogger()).instant('up', 0).catch((e: unknown) => e);
  assert.ok(err instanceof PrometheusUnreachableError, String(err));
  assert.match(err.message, /self[- ]signed/i);
});

test('--ca-file trusts the server; --insecure-skip-verify skips the check', async () => {
  const withCa = await new PrometheusQueryClient({ url, caFile: join(dir, 'cert.pem') }, silentLogger()).instant('up', 0);
  assert.deepEqual(withCa.result.result, []);
  const skip = await new PrometheusQueryClient({ url, insecureSkipVerify: true }, silentLogger()).instant('up', 0);
  assert.deepEqual(skip.result.result, []);
});
