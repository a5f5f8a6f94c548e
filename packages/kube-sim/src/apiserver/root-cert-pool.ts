/**
 * A webhook's `caBundle` read the way the real API server reads it (client-go's rootCertPool on
 * Go's crypto/x509): certificates Go cannot parse are skipped; when none is left, the error is
 * client-go's ("unable to parse bytes as PEM block", "failed to parse certificate: x509: ...",
 * "no valid certificate authority data seen"). Node's TLS accepts certificates Go refuses (a
 * PrintableString name with '@'), so without this kube-sim would call webhooks a real cluster skips.
 */
import { goX509ParseError } from 'kube-basics/go-x509-strictness';

/** The certificates Go would trust (PEM), or why the bundle cannot be used. */
export type RootCertPool = { ok: true; certificates: string[] } | { ok: false; error: string };

interface PemBlock {
  type: string;
  pem: string;
  der: Buffer;
  /** The text after the block (its end line and line break consumed, as Go's pem.Decode does). */
  rest: string;
}

const BLOCK = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----[^\n]*(?:\n|$)/;

/** The next PEM block in `text` (anything before it is skipped), or undefined. */
function nextBlock(text: string): PemBlock | undefined {
  const m = BLOCK.exec(text);
  if (!m) return undefined;
  const body = m[2]!;
  if (!/^[A-Za-z0-9+/=\s]*$/.test(body)) return undefined;
  return { type: m[1]!, pem: m[0], der: Buffer.from(body.replace(/\s/g, ''), 'base64'), rest: text.slice(m.index + m[0].length) };
}

/** Reads a PEM bundle like client-go's rootCertPool (AppendCertsFromPEM, then createErrorParsingCAData). */
export function readRootCertPool(bundle: string): RootCertPool {
  const certificates: string[] = [];
  let firstError: string | undefined;
  let rest = bundle;
  for (;;) {
    const block = nextBlock(rest);
    if (!block) {
      // Go's pem.Decode found no block in what is left: an error unless nothing is left.
      if (rest.length > 0) firstError ??= 'unable to parse bytes as PEM block';
      break;
    }
    rest = block.rest;
    if (block.type !== 'CERTIFICATE') continue;
    const refusal = goX509ParseError(block.der);
    if (refusal) firstError ??= `failed to parse certificate: ${refusal}`;
    else certificates.push(block.pem);
  }
  if (certificates.length > 0) return { ok: true, certificates };
  return { ok: false, error: firstError ?? 'no valid certificate authority data seen' };
}
