/**
 * Tailor's certificates under a real Go parser (crypto/x509, what the kube-apiserver uses), and
 * kube-sim's imitation of Go's strictness checked against the real thing. Needs the Go toolchain,
 * so it is not part of `npm test`: run it with `npm run test:go-x509` (CI does when `go` is on PATH).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import forge from 'node-forge';
import { createCa, issueServingCertificate, serviceDnsNames } from 'kube-basics/self-signed-certificates';
import { goX509ParseError } from 'kube-basics/go-x509-strictness';
import { createCertificateAuthority } from 'kube-sim/apiserver/certificates';
import { craftCertificate, derOf } from 'kube-basics/test/crafted-certificate';

const NOW = Date.UTC(2026, 0, 1);
const T = forge.asn1.Type;

interface GoAnswer {
  parse: Record<string, string>;
  verify: Record<string, string>;
}

/** Runs the Go program over the cases (compiling it takes a while on a loaded machine). */
function askGo(parse: Array<{ name: string; pem: string }>, verify: Array<{ name: string; roots: string; leaf: string; host: string }>): GoAnswer {
  const go = process.env['GO'] ?? 'go';
  const input = JSON.stringify({ now: new Date(NOW).toISOString(), parse, verify });
  try {
    const out = execFileSync(go, ['run', '.'], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      input,
      timeout: 600_000,
      env: { ...process.env, GOTOOLCHAIN: 'local', GOPROXY: 'off', GOFLAGS: '-mod=mod' },
    });
    return JSON.parse(out.toString('utf8')) as GoAnswer;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`the Go toolchain ("${go}") is not on PATH; this check needs it (set GO= to its path)`, { cause: err });
    throw new Error(`go run failed: ${String((err as { stderr?: Buffer }).stderr ?? err)}`, { cause: err });
  }
}

function pemOf(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
}

test("Go's crypto/x509 reads and verifies the admission webhook's and kube-sim's certificates, and refuses the old PrintableString CA", () => {
  const webhookCa = createCa(`tailor-webhook-ca@${NOW / 1000}`, NOW);
  const webhookServing = issueServingCertificate(webhookCa, serviceDnsNames('tailor-webhook', 'tailor'), NOW);
  const urlServing = issueServingCertificate(webhookCa, ['127.0.0.1'], NOW);
  const sim = createCertificateAuthority('kube-sim-ca', NOW);
  const simServing = sim.issueServerCertificate('localhost', ['tailor.tailor.svc']);
  const oldCa = craftCertificate({ tag: T.PRINTABLESTRING, value: `tailor-webhook-ca@${NOW / 1000}` }, NOW);

  const answer = askGo(
    [
      { name: 'webhook CA', pem: webhookCa.cert },
      { name: 'webhook serving', pem: webhookServing.cert },
      { name: 'kube-sim CA', pem: sim.certPem },
      { name: 'kube-sim serving', pem: simServing.certPem },
      { name: 'old webhook CA', pem: oldCa },
    ],
    [
      { name: 'webhook by service', roots: webhookCa.cert, leaf: webhookServing.cert, host: 'tailor-webhook.tailor.svc' },
      { name: 'webhook by URL', roots: webhookCa.cert, leaf: urlServing.cert, host: '127.0.0.1' },
      { name: 'kube-sim by IP', roots: sim.certPem, leaf: simServing.certPem, host: '127.0.0.1' },
      { name: 'kube-sim by service name', roots: sim.certPem, leaf: simServing.certPem, host: 'tailor.tailor.svc' },
      { name: 'wrong host', roots: webhookCa.cert, leaf: webhookServing.cert, host: 'other.tailor.svc' },
      { name: 'old webhook CA', roots: oldCa, leaf: webhookServing.cert, host: 'tailor-webhook.tailor.svc' },
    ],
  );
  assert.deepEqual(answer.parse, {
    'webhook CA': '',
    'webhook serving': '',
    'kube-sim CA': '',
    'kube-sim serving': '',
    'old webhook CA': 'x509: invalid RDNSequence: invalid attribute value: invalid PrintableString',
  });
  assert.equal(answer.verify['webhook by service'], '');
  assert.equal(answer.verify['webhook by URL'], '');
  assert.equal(answer.verify['kube-sim by IP'], '');
  assert.equal(answer.verify['kube-sim by service name'], '');
  assert.match(answer.verify['wrong host'] ?? '', /certificate is valid for .*not other\.tailor\.svc/);
  assert.equal(
    answer.verify['old webhook CA'],
    'unable to load root certificates: failed to parse certificate: x509: invalid RDNSequence: invalid attribute value: invalid PrintableString',
  );
});

test("kube-sim's imitation of Go's strictness (goX509ParseError) gives Go's answer for names of every string type and for serial numbers", () => {
  const cases: Array<{ name: string; der: Buffer }> = [];
  const strings: Array<[number, string]> = [
    [T.PRINTABLESTRING, 'plain name'],
    [T.PRINTABLESTRING, "Az09 '()+,-./:=?"],
    [T.PRINTABLESTRING, 'star*and&'],
    ...[...'@_!"#$%;<>[]\\^`{|}~\t'].map((c): [number, string] => [T.PRINTABLESTRING, `a${c}b`]),
    [T.PRINTABLESTRING, 'caf\u00e9'],
    [T.UTF8, 'caf\u00c3\u00a9@x'],
    [T.IA5STRING, 'a@b'],
    [T.IA5STRING, 'a\u00ffb'],
    [18, '123 4'],
    [18, '12a'],
    [20, 'caf\u00e9'],
    [30, 'a@\u00e9'],
    [30, 'a\ud800'],
    [30, '\ufffe'],
    [30, '\ufdef'],
    [26, 'visible'],
    [4, 'octets'],
  ];
  for (const [tag, value] of strings) cases.push({ name: `tag ${tag} ${JSON.stringify(value)}`, der: derOf(craftCertificate({ tag, value }, NOW)) });
  for (const serial of ['7f5a', '00ff', '0012', 'ff80', '8012', '0080']) {
    const der = derOf(craftCertificate({ tag: T.UTF8, value: 'ca', serialHex: '7f5a' }, NOW));
    Buffer.from(serial, 'hex').copy(der, der.indexOf(Buffer.from('02027f5a', 'hex')) + 2);
    cases.push({ name: `serial ${serial}`, der });
  }
  const answer = askGo(
    cases.map((c) => ({ name: c.name, pem: pemOf(c.der) })),
    [],
  );
  const mismatches = cases
    .filter((c) => (goX509ParseError(c.der) ?? '') !== answer.parse[c.name])
    .map((c) => `${c.name}: Go says ${JSON.stringify(answer.parse[c.name])}, kube-sim ${JSON.stringify(goX509ParseError(c.der))}`);
  assert.deepEqual(mismatches, []);
  // The battery holds both answers, so the comparison means something.
  assert.ok(Object.values(answer.parse).filter((e) => e === '').length >= 5);
  assert.ok(Object.values(answer.parse).filter((e) => e !== '').length >= 10);
});
