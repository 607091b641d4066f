package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"

	"github.com/gametune/gametune/secretfile"
)

// maxCertFile bounds a certificate or key file.
const maxCertFile = 1 << 20

// clientTLS is the TLS configuration of a client that trusts the
// certificates in the PEM file caFile.
func clientTLS(caFile string) (*tls.Config, error) {
	data, err := readPlainFile(caFile, "--tls-ca file", maxCertFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("cluster: --tls-ca file %s holds no PEM certificate", caFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// serverTLS is the TLS configuration of a broker with the certificate
// chain in certFile and its key in keyFile (PEM; the key a plain file readable by its owner alone).
func serverTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" || keyFile == "" {
		return nil, fmt.Errorf("cluster: TLS needs both --tls-cert and --tls-key")
	}
	certPEM, err := readPlainFile(certFile, "--tls-cert file", maxCertFile)
	if err != nil {
		return nil, err
	}
	keyPEM, err := secretfile.Read(keyFile, "--tls-key file")
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("cluster: --tls-cert %s and --tls-key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}
