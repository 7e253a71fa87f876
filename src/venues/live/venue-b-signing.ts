import { constants, createPrivateKey, type KeyObject, sign } from 'node:crypto';

/**
 * venue_b's request signing (Kalshi trade API v2): RSA-PSS with SHA-256 and a
 * salt as long as the digest, over `timestamp + METHOD + path`, where the
 * timestamp is in milliseconds and the path is the whole URL path (with the
 * `/trade-api/v2` prefix) without its query string. Base64 in the headers.
 */
export interface VenueBCredentials {
  keyId: string;
  privateKey: KeyObject;
}

export function venueBCredentials(keyId: string, privateKeyPem: string): VenueBCredentials {
  return { keyId, privateKey: createPrivateKey(privateKeyPem) };
}

export function venueBSignature(key: KeyObject, timestampMs: string, method: string, path: string): string {
  const message = `${timestampMs}${method.toUpperCase()}${path.split('?')[0]}`;
  return sign('sha256', Buffer.from(message, 'utf8'), {
    key,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
}

export function venueBAuthHeaders(
  creds: VenueBCredentials,
  method: string,
  path: string,
  now: () => number = Date.now,
): Record<string, string> {
  const ts = String(now());
  return {
    'KALSHI-ACCESS-KEY': creds.keyId,
    'KALSHI-ACCESS-TIMESTAMP': ts,
    'KALSHI-ACCESS-SIGNATURE': venueBSignature(creds.privateKey, ts, method, path),
  };
}
