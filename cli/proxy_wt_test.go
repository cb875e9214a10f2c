package cli

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
)

// wtListening is what the MCP-Flow proxy prints once it listens: the URL
// and the pin of its certificate.
var wtListening = regexp.MustCompile(`listening on (wt://\S+) for \S+; pin the proxy's certificate with --cert-hash (sha256:[0-9a-f]{64})`)

// startWTProxy runs the MCP-Flow proxy in front of the demo d and returns
// it, the URL a host uses and the pin of the proxy's certificate.
func startWTProxy(t *testing.T, d *flowtest.Demo, args ...string) (*netProxy, string, string) {
	t.Helper()
	args = append([]string{"--name", "wt-test", "--listen", "127.0.0.1:0", "--cert-hash", d.CertHash()}, args...)
	p, m := startNetProxy(t, wtListening, append(args, d.Target())...)
	return p, m[0], m[1]
}

// mcpscope's own MCP-Flow client through the proxy gets what it gets
// without it: the tools, an echo, a stream of several MiB byte for byte,
// the progress datagrams of a long task; the recording holds the control
// frames both ways, the stream's chunks and the datagrams.
func TestProxyWTSameAnswers(t *testing.T) {
	d := flowDemo(t)
	p, local, hash := startWTProxy(t, d)
	direct := mcpscope(t, "tools", "--cert-hash", d.CertHash(), d.Target())
	direct.mustExit(t, ExitOK)
	through := mcpscope(t, "tools", "--cert-hash", hash, local)
	through.mustExit(t, ExitOK)
	if through.stdout != direct.stdout {
		t.Errorf("tools through the proxy:\n%s\nwithout:\n%s", through.stdout, direct.stdout)
	}
	echo := mcpscope(t, "call", "--cert-hash", hash, "tools/call", toolCall(t, "echo", map[string]any{"message": "over MCP-Flow"}), local)
	checkResultOnly(t, echo, "over MCP-Flow")
	asJSON := mcpscope(t, "call", "--cert-hash", hash, "--encoding", "json", "tools/call", toolCall(t, "echo", map[string]any{"message": "in JSON"}), local)
	checkResultOnly(t, asJSON, "in JSON")

	const size = 5<<20 + 11
	dir := filepath.Join(t.TempDir(), "streams")
	big := mcpscope(t, "call", "--cert-hash", hash, "--stream-out", dir, "tools/call",
		toolCall(t, "read_file", map[string]any{"size": size, "seed": 3}), local)
	big.mustExit(t, ExitOK)
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) != 1 {
		t.Fatalf("stream files %v\n%s", files, big.stderr)
	}
	got, err := os.ReadFile(files[0])
	if err != nil || !bytes.Equal(got, demoGenerated(size, 3)) {
		t.Fatalf("the stream through the proxy: %d bytes (%v), want the %d generated", len(got), err, size)
	}

	slow := mcpscope(t, "call", "--cert-hash", hash, "--progress", "tools/call", toolCall(t, "analyze", map[string]any{"steps": 3, "interval_ms": 10}), local)
	slow.mustExit(t, ExitOK)
	// Progress travels on datagrams, which may be lost or overtaken by
	// the result: one of them reaching the host is the proof.
	if !strings.Contains(slow.stderr, "progress ") {
		t.Errorf("the host saw no progress through the proxy: %s", slow.stderr)
	}
	p.finish(t).mustExit(t, ExitOK)
	var out, in, chunks, datagrams int
	var streamed int
	for _, f := range p.frames(t) {
		switch {
		case f.Chan.Kind == capture.Control && f.Msg != nil && f.Dir == capture.Out:
			out++
		case f.Chan.Kind == capture.Control && f.Msg != nil:
			in++
		case f.Chan.Kind == capture.Stream:
			chunks++
			streamed += f.Size
		case f.Chan.Kind == capture.Datagram && f.Err == nil:
			datagrams++
		}
	}
	if out < 8 || in < 8 || chunks < 10 || datagrams < 3 || streamed < size {
		t.Errorf("recorded %d messages out, %d in, %d stream chunks of %d bytes, %d datagrams", out, in, chunks, streamed, datagrams)
	}
}

// demoGenerated is the demo's generated data: byte i is (i*31+seed) % 251.
func demoGenerated(size, seed int) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte((i*31 + seed) % 251)
	}
	return b
}

// A server that is down: the host's session is refused with 502 Bad
// Gateway, and the recording says why.
func TestProxyWTUpstreamDown(t *testing.T) {
	d := flowDemo(t)
	_ = d.Stop()
	p, local, hash := startWTProxy(t, d)
	r := mcpscope(t, "tools", "--cert-hash", hash, "--timeout", "20s", local)
	if r.code != ExitConnection || !strings.Contains(r.stderr, "refused the WebTransport session with HTTP status 502") {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
	p.finish(t).mustExit(t, ExitOK)
	said := false
	for _, f := range p.frames(t) {
		said = said || strings.Contains(string(f.Raw), "could not open the WebTransport session to https://127.0.0.1:")
	}
	if !said {
		t.Error("the recording does not say why the session was refused")
	}
}

// The demo's misbehaviours through the proxy reach the host as they reach
// it without the proxy: a lying length prefix, a frame in the wrong
// encoding, a stream of no request in flight, a stream reset mid-transfer
// and a dropped connection end the host's call the same way; the
// recording keeps the broken frame with its error.
func TestProxyWTMisbehave(t *testing.T) {
	d := flowDemo(t)
	p, local, hash := startWTProxy(t, d)
	for _, mode := range []string{"lying_length", "wrong_encoding", "foreign_stream", "stream_error", "drop"} {
		call := toolCall(t, "misbehave", map[string]any{"mode": mode})
		direct := mcpscope(t, "call", "--cert-hash", d.CertHash(), "tools/call", call, d.Target())
		through := mcpscope(t, "call", "--cert-hash", hash, "tools/call", call, local)
		checkStderrLines(t, through, false)
		if through.code != direct.code || through.stdout != direct.stdout {
			t.Errorf("%s: exit %d through the proxy, %d without\nthrough: %s%s\nwithout: %s%s", mode,
				through.code, direct.code, through.stdout, through.stderr, direct.stdout, direct.stderr)
		}
		if mode != "drop" && mode != "stream_error" && through.stderr != direct.stderr {
			t.Errorf("%s: through the proxy the host says\n%s\nwithout it\n%s", mode, through.stderr, direct.stderr)
		}
	}
	p.finish(t).mustExit(t, ExitOK)
	lying := false
	for _, f := range p.frames(t) {
		lying = lying || f.Chan.Kind == capture.Control && f.Err != nil && bytes.HasPrefix(f.Raw, []byte{0xFF, 0xFF, 0xFF, 0xFF})
	}
	if !lying {
		t.Error("the lying length prefix is not recorded with an error")
	}
}

// --cert and --key: the wt:// proxy presents the certificate they name
// (the hash it prints is that certificate's); one without the other, or
// either for another transport, is a usage error.
func TestProxyWTCertFlags(t *testing.T) {
	cert, err := tlscert.SelfSigned("mcpscope test", time.Now(), 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	key, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key}), 0o600)

	d := flowDemo(t)
	_, local, hash := startWTProxy(t, d, "--cert", certFile, "--key", keyFile)
	if hash != tlscert.Hash(cert.Certificate[0]) {
		t.Errorf("the proxy prints %s, not its certificate's hash", hash)
	}
	mcpscope(t, "tools", "--cert-hash", hash, local).mustExit(t, ExitOK)

	for _, args := range [][]string{
		{"proxy", "--listen", "127.0.0.1:0", "--cert", certFile, d.Target()},
		{"proxy", "--listen", "127.0.0.1:0", "--cert", certFile, "--key", keyFile, "ws://127.0.0.1:1/mcp"},
		{"proxy", "--listen", "127.0.0.1:0", "--cert", keyFile, "--key", keyFile, d.Target()},
	} {
		r := mcpscope(t, args...)
		r.mustExit(t, ExitUsage)
		if !strings.Contains(r.stderr, "--cert") {
			t.Errorf("%v: %s", args, r.stderr)
		}
	}
}
