// A certificate authority of the tests' own: a root made at the start of a test file and server certificates it
// signs for the names a test serves (autoconfig.example.test, imap.example.test…), so TLS is checked for real —
// the code under test trusts this root only because the test hands it over (a `ca` option), never the system.
// Keys are node's (fast, RSA 2048); node-forge writes the X.509 certificates.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export type TestCa = {
  /** The root, PEM: what a client passes as `ca`. */
  cert: string;
  /** A key and a certificate for these DNS names (and 127.0.0.1), signed by the root. */
  issue(names: string[]): { key: string; cert: string };
};

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    pem,
    privateKey: forge.pki.privateKeyFromPem(pem),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function certificate(publicKey: forge.pki.PublicKey, subject: string): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial: the first byte's top bit clear.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 60 * 60 * 1000);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  return cert;
}

export function startTestCa(): TestCa {
  const root = keyPair();
  const rootCert = certificate(root.publicKey, 'Skimmer test CA');
  rootCert.setIssuer(rootCert.subject.attributes);
  rootCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  rootCert.sign(root.privateKey, forge.md.sha256.create());
  return {
    cert: forge.pki.certificateToPem(rootCert),
    issue(names) {
      const leaf = keyPair();
      const cert = certificate(leaf.publicKey, names[0] ?? 'localhost');
      cert.setIssuer(rootCert.subject.attributes);
      cert.setExtensions([
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [...names.map((value) => ({ type: 2, value })), { type: 7, ip: '127.0.0.1' }],
        },
      ]);
      cert.sign(root.privateKey, forge.md.sha256.create());
      return { key: leaf.pem, cert: forge.pki.certificateToPem(cert) };
    },
  };
}
