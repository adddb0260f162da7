// Inbound TLS of the data-plane listener. Loaded once at startup; rotation needs a restart.
// A plain string is a path or inline PEM (read by the TLS check); a secret reference is
// resolved like any other secret.
import { Type } from '@sinclair/typebox';
import { SecretRefField } from './secret-ref.js';

function PemSource(description: string) {
  return Type.Union(
    [
      Type.String({ minLength: 1, description: "A file path (relative to the config's folder) or the PEM text itself." }),
      SecretRefField('A secret reference whose value is the PEM text.'),
    ],
    { description },
  );
}

export const TlsSettings = Type.Object(
  {
    cert: PemSource('Certificate chain, PEM, leaf first.'),
    key: PemSource('Private key of the leaf, PEM: PKCS#8, PKCS#1 or SEC1.'),
    client_ca: Type.Optional(PemSource('CA bundle, PEM; when set, clients must present a certificate it signed (mTLS).')),
  },
  { additionalProperties: false, description: 'Inbound TLS (ALPN http/1.1). Without this block the data plane speaks plain HTTP.' },
);
