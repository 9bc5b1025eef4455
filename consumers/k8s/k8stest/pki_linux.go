package k8stest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is the cluster's certificate authority and the files it signed,
// all under dir.
type pki struct {
	dir    string
	caCert *x509.Certificate
	caKey  *ecdsa.PrivateKey
}

// certSpec is one certificate to issue.
type certSpec struct {
	name   string // file stem: name.crt, name.key
	cn     string
	org    string
	server bool // serving certificate for the SANs below (also a client)
	dns    []string
	ips    []net.IP
}

// clusterCerts are the certificates the cluster's parts use.
var clusterCerts = []certSpec{
	{name: "apiserver", cn: "kube-apiserver", server: true,
		dns: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		ips: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv4(10, 96, 0, 1)}},
	{name: "kubelet", cn: NodeName, server: true, dns: []string{NodeName}, ips: []net.IP{net.IPv4(127, 0, 0, 1)}},
	{name: "apiserver-kubelet-client", cn: "kube-apiserver-kubelet-client", org: "system:masters"},
	{name: "admin", cn: "admin", org: "system:masters"},
	{name: "node", cn: "system:node:" + NodeName, org: "system:nodes"},
}

// newPKI writes a CA, the cluster's certificates and the service-account
// key pair into dir.
func newPKI(dir string) (*pki, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ptyseam-k8stest-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(7 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	p := &pki{dir: dir, caCert: ca, caKey: key}
	if err := p.write("ca", der, key); err != nil {
		return nil, err
	}
	for i, c := range clusterCerts {
		if err := p.issue(int64(i+2), c); err != nil {
			return nil, fmt.Errorf("certificate %s: %w", c.name, err)
		}
	}
	sa, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&sa.PublicKey)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(p.path("sa.pub"), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o600); err != nil {
		return nil, err
	}
	return p, writeKey(p.path("sa.key"), sa)
}

// issue signs one certificate with the CA.
func (p *pki) issue(serial int64, c certSpec) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: c.cn},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(7 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		DNSNames: c.dns, IPAddresses: c.ips,
	}
	if c.org != "" {
		tmpl.Subject.Organization = []string{c.org}
	}
	if c.server {
		tmpl.ExtKeyUsage = append(tmpl.ExtKeyUsage, x509.ExtKeyUsageServerAuth)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.caCert, &key.PublicKey, p.caKey)
	if err != nil {
		return err
	}
	return p.write(c.name, der, key)
}

// write writes name.crt and name.key.
func (p *pki) write(name string, der []byte, key *ecdsa.PrivateKey) error {
	if err := os.WriteFile(p.path(name+".crt"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		return err
	}
	return writeKey(p.path(name+".key"), key)
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	b, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: b}), 0o600)
}

// path is a file of the PKI directory.
func (p *pki) path(name string) string { return filepath.Join(p.dir, name) }

// kubeconfig writes a kubeconfig for user (a certificate stem) at server
// and returns its path.
func (p *pki) kubeconfig(user, server string) (string, error) {
	text := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: k8stest
  cluster: {certificate-authority: %q, server: %q}
users:
- name: %s
  user: {client-certificate: %q, client-key: %q}
contexts:
- name: k8stest
  context: {cluster: k8stest, user: %s}
current-context: k8stest
`, p.path("ca.crt"), server, user, p.path(user+".crt"), p.path(user+".key"), user)
	path := p.path(user + ".kubeconfig")
	return path, os.WriteFile(path, []byte(text), 0o600)
}
