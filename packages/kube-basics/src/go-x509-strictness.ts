/**
 * Where Go's crypto/x509 (the kube-apiserver's parser) refuses a certificate that node's TLS
 * accepts: the string type and characters of every name attribute (a PrintableString may hold
 * only `A-Z a-z 0-9 '()+,-./:=? ` — Go also lets `*` and `&` through — so `@` fails; T61String,
 * UTF8String, BMPString, IA5String and NumericString are the other types Go reads) and the
 * serial number (minimally encoded, not negative). The error texts are Go's own, so callers can
 * show what the real API server would say.
 */
/** One DER element: its tag number, class bits and content bytes. */
interface Tlv {
  tag: number;
  tagClass: number;
  constructed: boolean;
  content: Buffer;
}

class DerError extends Error {}

/** Reads the element at the start of `buf` (DER: one-byte tags, definite lengths); returns it and the rest. */
function readTlv(buf: Buffer): [Tlv, Buffer] {
  if (buf.length < 2) throw new DerError('truncated');
  const first = buf[0]!;
  if ((first & 0x1f) === 0x1f) throw new DerError('multi-byte tag');
  let length = buf[1]!;
  let offset = 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4 || buf.length < 2 + n) throw new DerError('bad length');
    length = buf.subarray(2, 2 + n).reduce((acc, b) => acc * 256 + b, 0);
    offset += n;
  }
  if (buf.length < offset + length) throw new DerError('truncated');
  const tlv = { tag: first & 0x1f, tagClass: first & 0xc0, constructed: (first & 0x20) !== 0, content: buf.subarray(offset, offset + length) };
  return [tlv, buf.subarray(offset + length)];
}

/** The elements inside a constructed element. */
function childrenOf(tlv: Tlv): Tlv[] {
  const out: Tlv[] = [];
  let rest = tlv.content;
  while (rest.length > 0) {
    const [child, next] = readTlv(rest);
    out.push(child);
    rest = next;
  }
  return out;
}

const UNIVERSAL = 0x00;
const CONTEXT_SPECIFIC = 0x80;
const INTEGER = 2;
const OID = 6;
const UTF8_STRING = 12;
const SEQUENCE = 16;
const SET = 17;
const NUMERIC_STRING = 18;
const PRINTABLE_STRING = 19;
const T61_STRING = 20;
const IA5_STRING = 22;
const BMP_STRING = 30;

/** Go's `isPrintable`, including the `*` and `&` it tolerates. */
function isGoPrintable(code: number): boolean {
  const c = String.fromCharCode(code);
  return /[A-Za-z0-9'()+,\-./ :=?*&]/.test(c);
}

/** Go's parseASN1String: the reason a name attribute value is refused, or undefined. */
function stringError(tag: number, bytes: Buffer): string | undefined {
  switch (tag) {
    case PRINTABLE_STRING:
      return [...bytes].every(isGoPrintable) ? undefined : 'invalid PrintableString';
    case UTF8_STRING: {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        return undefined;
      } catch {
        return 'invalid UTF-8 string';
      }
    }
    case IA5_STRING:
      return [...bytes].every((b) => b < 0x80) ? undefined : 'invalid IA5String';
    case NUMERIC_STRING:
      return [...bytes].every((b) => (b >= 0x30 && b <= 0x39) || b === 0x20) ? undefined : 'invalid NumericString';
    case T61_STRING:
      return undefined;
    case BMP_STRING: {
      if (bytes.length % 2 !== 0) return 'invalid BMPString';
      const end = bytes.length >= 2 && bytes[bytes.length - 1] === 0 && bytes[bytes.length - 2] === 0 ? bytes.length - 2 : bytes.length;
      for (let i = 0; i < end; i += 2) {
        const point = (bytes[i]! << 8) + bytes[i + 1]!;
        if (point === 0xfffe || point === 0xffff || (point >= 0xfdd0 && point <= 0xfdef) || (point >= 0xd800 && point <= 0xdfff)) return 'invalid BMPString';
      }
      return undefined;
    }
    default:
      return `unsupported string type: ${tag}`;
  }
}

/** Go's parseName over one Name (a SEQUENCE of SETs of SEQUENCE { OID, value }). */
function nameError(name: Tlv): string | undefined {
  if (name.tagClass !== UNIVERSAL || name.tag !== SEQUENCE) return 'x509: invalid RDNSequence';
  for (const set of childrenOf(name)) {
    if (set.tag !== SET || !set.constructed) return 'x509: invalid RDNSequence';
    for (const atav of childrenOf(set)) {
      if (atav.tag !== SEQUENCE || !atav.constructed) return 'x509: invalid RDNSequence: invalid attribute';
      const [oid, value] = childrenOf(atav);
      if (!oid || oid.tag !== OID) return 'x509: invalid RDNSequence: invalid attribute type';
      if (!value) return 'x509: invalid RDNSequence: invalid attribute value';
      const reason =
        value.tagClass === UNIVERSAL && !value.constructed
          ? stringError(value.tag, value.content)
          : `unsupported string type: ${value.tag | value.tagClass | (value.constructed ? 0x20 : 0)}`;
      if (reason) return `x509: invalid RDNSequence: invalid attribute value: ${reason}`;
    }
  }
  return undefined;
}

/** The serial number's refusal: non-minimal encoding or (since Go 1.23) negative. */
function serialError(serial: Tlv): string | undefined {
  const b = serial.content;
  if (serial.tag !== INTEGER || b.length === 0) return 'x509: malformed serial number';
  if (b.length > 1 && ((b[0] === 0x00 && (b[1]! & 0x80) === 0) || (b[0] === 0xff && (b[1]! & 0x80) !== 0))) return 'x509: malformed serial number';
  if ((b[0]! & 0x80) !== 0) return 'x509: negative serial number';
  return undefined;
}

/**
 * The error Go's x509.ParseCertificate returns for the DER certificate, as far as serial numbers
 * and names go, or undefined when Go reads them. Not a full parser: it checks what forge and
 * node let through but Go does not.
 */
export function goX509ParseError(der: Uint8Array): string | undefined {
  try {
    const [cert] = readTlv(Buffer.from(der));
    const tbs = childrenOf(cert)[0];
    if (!tbs) return 'x509: malformed tbs certificate';
    const all = childrenOf(tbs);
    const fields = all[0]?.tagClass === CONTEXT_SPECIFIC ? all.slice(1) : all;
    const [serial, , issuer, , subject] = fields;
    if (!serial || !issuer || !subject) return 'x509: malformed tbs certificate';
    return serialError(serial) ?? nameError(issuer) ?? nameError(subject);
  } catch (err) {
    if (err instanceof DerError) return `x509: malformed certificate (${err.message})`;
    throw err;
  }
}
