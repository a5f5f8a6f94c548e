// Command go-x509-check reads certificates the way the kube-apiserver does (Go's crypto/x509) and
// says what it refuses. Test infrastructure only: Tailor's certificates are made by node-forge and
// node's TLS is more lenient than Go's, so a test runs this to be sure a real API server reads them.
//
// Input (stdin, JSON): {"now": RFC 3339, "parse": [{"name", "pem"}], "verify": [{"name", "roots",
// "leaf", "host"}]}. Output (stdout, JSON): {"parse": {name: error or ""}, "verify": {name: error or ""}}.
package main

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"time"
)

type parseCase struct {
	Name string `json:"name"`
	PEM  string `json:"pem"`
}

type verifyCase struct {
	Name  string `json:"name"`
	Roots string `json:"roots"`
	Leaf  string `json:"leaf"`
	Host  string `json:"host"`
}

type input struct {
	Now    time.Time    `json:"now"`
	Parse  []parseCase  `json:"parse"`
	Verify []verifyCase `json:"verify"`
}

type output struct {
	Parse  map[string]string `json:"parse"`
	Verify map[string]string `json:"verify"`
}

// parsePEM parses the first CERTIFICATE block, as x509.ParseCertificate sees it.
func parsePEM(text string) (*x509.Certificate, error) {
	block, _ := pem.Decode([]byte(text))
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, errors.New("no CERTIFICATE PEM block")
	}
	return x509.ParseCertificate(block.Bytes)
}

func message(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// verify checks the leaf against the roots for host at now, for server authentication, like a
// webhook client of the API server (client-go's transport) does.
func verify(c verifyCase, now time.Time) error {
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM([]byte(c.Roots)) {
		_, err := parsePEM(c.Roots)
		return fmt.Errorf("unable to load root certificates: failed to parse certificate: %w", err)
	}
	leaf, err := parsePEM(c.Leaf)
	if err != nil {
		return fmt.Errorf("tls: failed to parse certificate from server: %w", err)
	}
	_, err = leaf.Verify(x509.VerifyOptions{DNSName: c.Host, Roots: roots, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	return err
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "go-x509-check: reading the input:", err)
		os.Exit(2)
	}
	out := output{Parse: map[string]string{}, Verify: map[string]string{}}
	for _, c := range in.Parse {
		_, err := parsePEM(c.PEM)
		out.Parse[c.Name] = message(err)
	}
	for _, c := range in.Verify {
		out.Verify[c.Name] = message(verify(c, in.Now))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "go-x509-check: writing the output:", err)
		os.Exit(2)
	}
}
