/**
 * Where Go's crypto/x509 (the kube-apiserver's parser) refuses a certificate that node's TLS
 * accepts: the string type and characters of every name attribute (a PrintableString may hold
 * only `A-Z a-z 0-9 '()+,-./:=? ` — Go also lets `*` and `&` through — so `@` fails; T61String,
 * UTF8String, BMPString, IA5String and NumericString are the other types Go reads) and the
 * serial number (minimally encoded, not negative). The error texts are Go's own, so callers can
 * show what the real API server would say.
 */
import forge from 'node-forge';

const T = forge.asn1.Type;
const UNIVERSAL = forge.asn1.Class.UNIVERSAL;
const BMP_STRING = 30;
const NUMERIC_STRING = 18;
const T61_STRING = 20;

/** Go's `isPrintable`, including the `*` and `&` it tolerates. */
function isGoPrintable(code: number): boolean {
  const c = String.fromCharCode(code);
  return /[A-Za-z0-9'()+,\-./ :=?*&]/.test(c);
}

/** Go's parseASN1String: the reason a name attribute value is refused, or undefined. */
function stringError(tag: number, raw: string): string | undefined {
  const bytes = Buffer.from(raw, 'binary');
  switch (tag) {
    case T.PRINTABLESTRING:
      return [...bytes].every(isGoPrintable) ? undefined : 'invalid PrintableString';
    case T.UTF8: {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        return undefined;
      } catch {
        return 'invalid UTF-8 string';
      }
    }
    case T.IA5STRING:
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
function nameError(name: forge.asn1.Asn1): string | undefined {
  if (name.tagClass !== UNIVERSAL || name.type !== T.SEQUENCE || !Array.isArray(name.value)) return 'x509: invalid RDNSequence';
  for (const set of name.value) {
    if (set.type !== T.SET || !Array.isArray(set.value)) return 'x509: invalid RDNSequence';
    for (const atav of set.value) {
      if (atav.type !== T.SEQUENCE || !Array.isArray(atav.value)) return 'x509: invalid RDNSequence: invalid attribute';
      const [oid, value] = atav.value;
      if (!oid || oid.type !== T.OID) return 'x509: invalid RDNSequence: invalid attribute type';
      if (!value || value.tagClass !== UNIVERSAL || typeof value.value !== 'string') return 'x509: invalid RDNSequence: invalid attribute value';
      const reason = stringError(value.type, value.value);
      if (reason) return `x509: invalid RDNSequence: invalid attribute value: ${reason}`;
    }
  }
  return undefined;
}

/** The serial number's refusal: non-minimal encoding or (since Go 1.23) negative. */
function serialError(serial: forge.asn1.Asn1): string | undefined {
  if (serial.type !== T.INTEGER || typeof serial.value !== 'string' || serial.value.length === 0) return 'x509: malformed serial number';
  const b0 = serial.value.charCodeAt(0);
  const b1 = serial.value.length > 1 ? serial.value.charCodeAt(1) : undefined;
  if (b1 !== undefined && ((b0 === 0x00 && (b1 & 0x80) === 0) || (b0 === 0xff && (b1 & 0x80) !== 0))) return 'x509: malformed serial number';
  if ((b0 & 0x80) !== 0) return 'x509: negative serial number';
  return undefined;
}

/**
 * The error Go's x509.ParseCertificate returns for the DER certificate, as far as serial numbers
 * and names go, or undefined when Go reads them. Not a full parser: it checks what forge and
 * node let through but Go does not.
 */
export function goX509ParseError(der: Uint8Array): string | undefined {
  let cert: forge.asn1.Asn1;
  try {
    cert = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary')), { strict: true, decodeBitStrings: false });
  } catch (err) {
    return `x509: malformed certificate (${(err as Error).message})`;
  }
  const tbs = Array.isArray(cert.value) ? cert.value[0] : undefined;
  if (!tbs || !Array.isArray(tbs.value)) return 'x509: malformed tbs certificate';
  const fields = tbs.value[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? tbs.value.slice(1) : tbs.value;
  const [serial, , issuer, , subject] = fields;
  if (!serial || !issuer || !subject) return 'x509: malformed tbs certificate';
  return serialError(serial) ?? nameError(issuer) ?? nameError(subject);
}
