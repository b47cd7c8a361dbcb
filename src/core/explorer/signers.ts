// A signer as the REST tx service writes it (`public_key: { "@type", key }`), with its address.

import { signerAddressFromKey, type Signer } from './decodeCosmos';
import { scalarText } from '../base/text';

type Json = Record<string, any>;

export function signerFromJson(s: Json, prefix: string): Signer {
  const typeUrl = typeof s?.public_key?.['@type'] === 'string' ? (s.public_key['@type'] as string) : undefined;
  const key = typeof s?.public_key?.key === 'string' ? (s.public_key.key as string) : undefined;
  const addr = typeUrl && key ? signerAddressFromKey(typeUrl, Buffer.from(key, 'base64'), prefix) : undefined;
  const mode = s?.mode_info?.single?.mode;
  return {
    pubKeyType: typeUrl,
    pubKey: key,
    address: addr?.bech32,
    hexAddress: addr?.hex,
    sequence: scalarText(s?.sequence),
    mode: typeof mode === 'string' ? mode : undefined,
  };
}
