//! A self-signed certificate for the `wss://` upstream: made with `rcgen`, served with
//! `tokio-rustls`, written as PEM for the relay's `--ca-file`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::TlsAcceptor;

/// A certificate for 127.0.0.1 and localhost, and its PEM file.
pub struct SelfSigned {
    /// The PEM file (the certificate is its own CA).
    pub pem: PathBuf,
    /// A TLS server presenting it.
    pub acceptor: TlsAcceptor,
}

impl SelfSigned {
    /// Generates a fresh key and certificate; writes `dir/<name>.pem`.
    pub fn new(dir: &Path, name: &str) -> SelfSigned {
        let names = vec!["127.0.0.1".to_string(), "localhost".to_string()];
        let certified = rcgen::generate_simple_self_signed(names).expect("a certificate");
        let pem = dir.join(format!("{name}.pem"));
        std::fs::write(&pem, certified.cert.pem()).unwrap();
        let chain = vec![CertificateDer::from(certified.cert.der().to_vec())];
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
            certified.signing_key.serialize_der(),
        ));
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("a server configuration");
        SelfSigned {
            pem,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        }
    }
}
