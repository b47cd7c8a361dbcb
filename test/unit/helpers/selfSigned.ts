// Certificates for TLS tests, made for the run with the openssl command line (.ci/run installs it).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface CertificatePair {
  key: Buffer;
  cert: Buffer;
}

/** A self-signed certificate in `dir` with CN `label`, for `names` (subjectAltName entries such as "IP:127.0.0.1"). */
export function selfSigned(dir: string, label: string, names: string): CertificatePair {
  const key = path.join(dir, `${label}.key`);
  const cert = path.join(dir, `${label}.crt`);
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        `/CN=${label}`,
        '-addext',
        `subjectAltName=${names}`,
      ],
      {
        stdio: 'pipe',
      },
    );
  } catch (err) {
    throw new Error(`These tests need the openssl command (apt-get install openssl): ${(err as Error).message}`);
  }
  return { key: readFileSync(key), cert: readFileSync(cert) };
}
