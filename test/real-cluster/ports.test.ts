/**
 * The lane's port choice (test/real-cluster/ports.sh), run through bash as up.sh runs it: a held
 * port is named with its process and waited for, then moved to the next free one; the ports chosen
 * are read back by every later script through $LANE_STATE/ports.env. Servers here listen on port 0,
 * so the ports are whatever the kernel gives, never the lane's defaults.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const LANE_ENV = join(import.meta.dirname, 'lane-env.sh');
const state = mkdtempSync(join(tmpdir(), 'tailor-ports-'));
after(() => rmSync(state, { recursive: true, force: true }));

async function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}

/** Runs `script` after sourcing lane-env.sh; calls onLine for each line of standard output. */
function lane(
  script: string,
  env: Record<string, string>,
  onLine: (line: string) => void = () => {},
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn('bash', ['-c', `set -euo pipefail; source ${JSON.stringify(LANE_ENV)}; ${script}`], {
    env: { ...process.env, TAILOR_CLUSTER_STATE: state, ...env },
  });
  let out = '';
  let err = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    lines.forEach(onLine);
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

test('a held port is named with its process, then moved to the next free port after the wait', async () => {
  const held = await listen();
  try {
    const result = await lane(`LANE_APISERVER_PORT=${held.port}; lane_pick_ports LANE_APISERVER_PORT; echo "chosen $LANE_APISERVER_PORT"`, {
      TAILOR_CLUSTER_PORT_WAIT: '0',
    });
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, new RegExp(`port 127\\.0\\.0\\.1:${held.port} \\(LANE_APISERVER_PORT\\) is held by pid ${process.pid} \\(node\\)`));
    const chosen = Number(/chosen (\d+)/.exec(result.out)![1]);
    assert.ok(chosen > held.port && chosen < held.port + 200, `moved above ${held.port}: ${chosen}`);
    assert.match(result.out, new RegExp(`port ${held.port} \\(LANE_APISERVER_PORT\\) is still in use; using ${chosen}`));
  } finally {
    held.server.close();
  }
});

test('a port let go during the wait is kept', async () => {
  const held = await listen();
  const result = await lane(
    `LANE_APISERVER_PORT=${held.port}; lane_pick_ports LANE_APISERVER_PORT; echo "chosen $LANE_APISERVER_PORT"`,
    { TAILOR_CLUSTER_PORT_WAIT: '600' },
    (line) => {
      if (line.includes('waiting up to 600s')) held.server.close();
    },
  );
  assert.equal(result.code, 0, result.err);
  assert.match(result.out, new RegExp(`chosen ${held.port}$`, 'm'));
  assert.doesNotMatch(result.out, /still in use/);
});

test('two components never share a port, and the choice is read back from ports.env', async () => {
  const free = await listen();
  const port = free.port;
  free.server.close();
  await new Promise((resolve) => free.server.once('close', resolve));
  const picked = await lane(
    `LANE_ETCD_CLIENT_PORT=${port}; LANE_ETCD_PEER_PORT=${port}; lane_pick_ports LANE_ETCD_CLIENT_PORT LANE_ETCD_PEER_PORT; lane_write_ports LANE_ETCD_CLIENT_PORT LANE_ETCD_PEER_PORT`,
    { TAILOR_CLUSTER_PORT_WAIT: '0' },
  );
  assert.equal(picked.code, 0, picked.err);
  const written = readFileSync(join(state, 'ports.env'), 'utf8');
  const client = Number(/^LANE_ETCD_CLIENT_PORT=(\d+)$/m.exec(written)![1]);
  const peer = Number(/^LANE_ETCD_PEER_PORT=(\d+)$/m.exec(written)![1]);
  assert.equal(client, port);
  assert.notEqual(peer, client);
  const read = await lane('echo "$LANE_ETCD_CLIENT_PORT $LANE_ETCD_PEER_PORT $LANE_APISERVER_PORT"', {});
  assert.equal(read.out.trim(), `${client} ${peer} 26443`, 'a later script reads the chosen ports; the others keep their defaults');
});

test("the defaults lie below the kernel's ephemeral range, where port-0 servers are given ports", async () => {
  const range = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const defaults = await lane(
    'rm -f "$LANE_STATE/ports.env"; source ' +
      JSON.stringify(LANE_ENV) +
      '; for v in "${LANE_CONTROL_PLANE_PORTS[@]}" LANE_KSM_PORT LANE_KSM_TELEMETRY_PORT; do echo "${!v}"; done',
    {},
  );
  assert.equal(defaults.code, 0, defaults.err);
  const ports = defaults.out.trim().split('\n').map(Number);
  assert.equal(ports.length, 7);
  for (const port of ports) assert.ok(port < range[0]!, `${port} is below ${range[0]}`);
});
