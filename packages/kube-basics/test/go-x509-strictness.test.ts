import { test } from 'node:test';
import assert from 'node:assert/strict';
import forge from 'node-forge';
import { goX509ParseError } from '../src/go-x509-strictness.ts';
import { craftCertificate, derOf } from './crafted-certificate.ts';

const T = forge.asn1.Type;
const refusal = (tag: number, value: string, serialHex?: string): string | undefined => goX509ParseError(derOf(craftCertificate({ tag, value, serialHex })));

/** A certificate whose 2-byte serial's content is replaced by `bytes` (forge itself writes only minimal integers). */
function withSerialBytes(bytes: string): Buffer {
  const der = derOf(craftCertificate({ tag: T.UTF8, value: 'ca', serialHex: '7f5a' }));
  const at = der.indexOf(Buffer.from('02027f5a', 'hex'));
  assert.ok(at > 0);
  Buffer.from(bytes, 'hex').copy(der, at + 2);
  return der;
}

test("a PrintableString name with '@' is refused with Go's error text; the same name as UTF8String is read", () => {
  assert.equal(refusal(T.PRINTABLESTRING, 'tailor-webhook-ca@1767225600'), 'x509: invalid RDNSequence: invalid attribute value: invalid PrintableString');
  assert.equal(refusal(T.UTF8, 'tailor-webhook-ca@1767225600'), undefined);
});

test("PrintableString takes Go's characters, including the '*' and '&' Go tolerates, and nothing else", () => {
  assert.equal(refusal(T.PRINTABLESTRING, "Az09 '()+,-./:=?*&"), undefined);
  for (const bad of ['@', '_', '!', '"', '#', '<', ';', '\u00e9']) {
    assert.match(refusal(T.PRINTABLESTRING, `x${bad}`) ?? 'accepted', /invalid PrintableString$/, JSON.stringify(bad));
  }
});

test('other string types follow Go: IA5 is ASCII, NumericString digits and spaces, BMPString UCS-2 without surrogates or noncharacters, unknown tags refused', () => {
  assert.equal(refusal(T.IA5STRING, 'a@b'), undefined);
  assert.match(refusal(T.IA5STRING, '\u00ff') ?? '', /invalid IA5String$/);
  assert.equal(refusal(18, '12 34'), undefined);
  assert.match(refusal(18, '12a') ?? '', /invalid NumericString$/);
  assert.equal(refusal(30, 'ab\u00e9'), undefined);
  assert.match(refusal(30, 'a\ud800') ?? '', /invalid BMPString$/);
  assert.match(refusal(30, '\ufdd0') ?? '', /invalid BMPString$/);
  assert.equal(refusal(20, '\u00e9'), undefined);
  assert.match(refusal(22 + 4, 'x') ?? '', /unsupported string type: 26$/);
});

test('a serial number that is negative or not minimally encoded is refused', () => {
  assert.equal(goX509ParseError(withSerialBytes('7f5a')), undefined);
  assert.equal(goX509ParseError(withSerialBytes('00ff')), undefined);
  assert.equal(goX509ParseError(withSerialBytes('0012')), 'x509: malformed serial number');
  assert.equal(goX509ParseError(withSerialBytes('ff80')), 'x509: malformed serial number');
  assert.equal(goX509ParseError(withSerialBytes('8012')), 'x509: negative serial number');
});
