package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// credentials are the files the apiserver is started with, all generated fresh for each run.
type credentials struct {
	caFile          string
	certFile        string
	keyFile         string
	saKeyFile       string
	tokenFile       string
	token           string
	auditPolicyFile string
}

// The audit policy records every request at Metadata level, which carries the audit annotations
// that admission policies add; the review suite reads them back.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`

func writeCredentials(dir string) (credentials, error) {
	c := credentials{
		caFile:          filepath.Join(dir, "ca.crt"),
		certFile:        filepath.Join(dir, "serving.crt"),
		keyFile:         filepath.Join(dir, "serving.key"),
		saKeyFile:       filepath.Join(dir, "service-account.key"),
		tokenFile:       filepath.Join(dir, "tokens.csv"),
		auditPolicyFile: filepath.Join(dir, "audit-policy.yaml"),
	}
	caKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return c, err
	}
	now := time.Now()
	caTemplate := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "cdk8s-admission conformance CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return c, err
	}
	caCert, _ := x509.ParseCertificate(caDER)

	servingKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return c, err
	}
	servingTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:     []string{"localhost"},
	}
	servingDER, err := x509.CreateCertificate(rand.Reader, servingTemplate, caCert, &servingKey.PublicKey, caKey)
	if err != nil {
		return c, err
	}
	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return c, err
	}
	tokenBytes := make([]byte, 24)
	if _, err := rand.Read(tokenBytes); err != nil {
		return c, err
	}
	c.token = hex.EncodeToString(tokenBytes)

	files := map[string][]byte{
		c.caFile:          pemBlock("CERTIFICATE", caDER),
		c.certFile:        pemBlock("CERTIFICATE", servingDER),
		c.keyFile:         pemBlock("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(servingKey)),
		c.saKeyFile:       pemBlock("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(saKey)),
		c.tokenFile:       []byte(fmt.Sprintf("%s,conformance,conformance-uid,\"system:masters\"\n", c.token)),
		c.auditPolicyFile: []byte(auditPolicy),
	}
	for path, data := range files {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return c, err
		}
	}
	return c, nil
}

func pemBlock(kind string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}
