package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// The interoperability tests run the real command in-process against the
// third-party servers of PEERS.md. Each run goes through the wiretap stub
// (interop_stubmodes_test.go), which starts the real server and records
// every line both ways, so a test can assert what crossed the wire (the
// handshake, a cancellation's requestId, an MRTR retry's params) and check
// that --trace reported exactly that.

// wireMsg is one JSON-RPC line the wiretap relayed.
type wireMsg struct {
	Out    bool            `json:"-"` // client → server
	Raw    []byte          `json:"-"` // the line without its LF
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// isRequest reports whether the message is a request (method and id).
func (m wireMsg) isRequest() bool { return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" }

// peerRun is one run of mcpscope against a real server behind the wiretap.
type peerRun struct {
	result
	wire         []wireMsg
	serverStderr []string // the lines the server wrote to stderr
}

// runPeer runs mcpscope with args (command, flags, positional arguments)
// against the server argv, through the wiretap and with --trace, and checks
// that the trace matches what the wiretap saw.
func runPeer(t *testing.T, argv []string, args ...string) peerRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "wire.log")
	args = append(args, "--trace", "--env", stubServerEnv+"=wiretap", "--env", wiretapLogEnv+"="+logPath)
	r := mcpscope(t, withTarget(append([]string{exe}, argv...), args...)...)
	p := peerRun{result: r}
	p.wire, p.serverStderr = readWire(t, logPath)
	p.checkTrace(t)
	return p
}

// readWire parses the wiretap's log into the JSON-RPC lines and the
// server's stderr lines.
func readWire(t *testing.T, path string) (msgs []wireMsg, stderr []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the wiretap left no log: %v", err)
	}
	for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if line[0] == wireStderr {
			stderr = append(stderr, string(line[1:]))
			continue
		}
		m := wireMsg{Out: line[0] == wireToServer, Raw: line[1:]}
		if err := json.Unmarshal(m.Raw, &m); err != nil {
			t.Fatalf("the wire carried a line that is not JSON: %q (%v)", m.Raw, err)
		}
		m.Out = line[0] == wireToServer
		msgs = append(msgs, m)
	}
	return msgs, stderr
}

// traceLine matches one --trace line: time, arrow, channel, size, summary.
var traceLine = regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} ([→←]) (\S+) (\d+)B(?: (.*))?$`)

// tracedFrame is one control frame --trace printed.
type tracedFrame struct {
	out     bool
	size    int
	summary string
}

// tracedControl returns the control frames --trace printed on stderr, in order.
func tracedControl(stderr string) []tracedFrame {
	var frames []tracedFrame
	for _, line := range strings.Split(stderr, "\n") {
		m := traceLine.FindStringSubmatch(line)
		if m == nil || m[2] != "control" {
			continue
		}
		size, _ := strconv.Atoi(m[3])
		frames = append(frames, tracedFrame{out: m[1] == "→", size: size, summary: m[4]})
	}
	return frames
}

// checkTrace compares the control frames --trace printed with the wire,
// direction by direction: same count (up to where the run stopped reading),
// same sizes (the line and its LF), same method.
func (p peerRun) checkTrace(t *testing.T) {
	t.Helper()
	traced := map[bool][]tracedFrame{}
	for _, f := range tracedControl(p.stderr) {
		traced[f.out] = append(traced[f.out], f)
	}
	if len(traced[true]) == 0 {
		t.Fatalf("--trace printed no outgoing frame:\n%s", p.stderr)
	}
	for _, out := range []bool{true, false} {
		var wire []wireMsg
		for _, m := range p.wire {
			if m.Out == out {
				wire = append(wire, m)
			}
		}
		tr := traced[out]
		if out && len(tr) != len(wire) {
			t.Errorf("--trace shows %d outgoing frames, the wire carried %d", len(tr), len(wire))
		}
		for i := range min(len(tr), len(wire)) {
			if tr[i].size != len(wire[i].Raw)+1 || !strings.Contains(tr[i].summary, wire[i].Method) {
				t.Errorf("trace frame %d (out=%v) is %dB %q, the wire carried %dB %s", i, out, tr[i].size, tr[i].summary, len(wire[i].Raw)+1, wire[i].Raw)
			}
		}
	}
}

// diag returns stderr without the trace lines and the notes of
// deprecated features.
func (p peerRun) diag() []string {
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(p.stderr, "\n"), "\n") {
		if line != "" && !traceLine.MatchString(line) && !deprecationNote(line) {
			lines = append(lines, line)
		}
	}
	return lines
}

// deprecationNote says a stderr line is the one-time note of a deprecated
// feature or transport (HTTP+SSE), which a run says beside what it tests.
func deprecationNote(line string) bool {
	return strings.HasPrefix(line, "note: ") && strings.Contains(line, " deprecated")
}

// requests returns the requests of method mcpscope sent, in order.
func (p peerRun) requests(method string) []wireMsg {
	var out []wireMsg
	for _, m := range p.wire {
		if m.Out && m.isRequest() && m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// sent reports whether mcpscope sent any message of method.
func (p peerRun) sent(method string) bool {
	for _, m := range p.wire {
		if m.Out && m.Method == method {
			return true
		}
	}
	return false
}

// responseTo returns the server's response to the request with id.
func (p peerRun) responseTo(t *testing.T, id json.RawMessage) wireMsg {
	t.Helper()
	for _, m := range p.wire {
		if !m.Out && m.Method == "" && bytes.Equal(m.ID, id) {
			return m
		}
	}
	t.Fatalf("the server never answered id %s", id)
	return wireMsg{}
}

// probeAnswer returns the server's answer to the server/discover probe
// with id: its response, or over HTTP an error with a null id (the
// JSON-RPC body of a 400 refusing the probe's POST), whichever came first.
func (p peerRun) probeAnswer(t *testing.T, id json.RawMessage) wireMsg {
	t.Helper()
	for _, m := range p.wire {
		if !m.Out && m.Method == "" && (bytes.Equal(m.ID, id) || (string(m.ID) == "null" && m.Error != nil)) {
			return m
		}
	}
	t.Fatalf("the server never answered server/discover (id %s)", id)
	return wireMsg{}
}

// metaVersion returns the protocol version a request's _meta carries.
func metaVersion(m wireMsg) string {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	var v string
	if json.Unmarshal(m.Params, &p) == nil {
		_ = json.Unmarshal(p.Meta["io.modelcontextprotocol/protocolVersion"], &v)
	}
	return v
}

// assertLegacyHandshake checks that the session opened with initialize
// offering version, answered with it, followed by notifications/initialized
// before any other request. probed says whether a server/discover came
// first, refused or answered with versions that leave 2026-07-28 out.
func (p peerRun) assertLegacyHandshake(t *testing.T, version string, probed bool) {
	t.Helper()
	var out []wireMsg
	for _, m := range p.wire {
		if m.Out {
			out = append(out, m)
		}
	}
	i := 0
	if probed {
		if len(out) == 0 || out[0].Method != "server/discover" {
			t.Fatalf("the session did not open with server/discover: %s", p.wireDump())
		}
		if res := p.probeAnswer(t, out[0].ID); res.Error == nil && listsModern(res) {
			t.Fatalf("server/discover was neither refused nor answered without 2026-07-28: %s", res.Raw)
		}
		i = 1
	} else if p.sent("server/discover") {
		t.Fatalf("server/discover was sent although the version was forced: %s", p.wireDump())
	}
	if len(out) < i+2 || out[i].Method != "initialize" || out[i+1].Method != "notifications/initialized" {
		t.Fatalf("initialize and notifications/initialized do not follow: %s", p.wireDump())
	}
	var offer, res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(out[i].Params, &offer) != nil || offer.ProtocolVersion != version {
		t.Errorf("initialize offered %s, want %s", out[i].Params, version)
	}
	if r := p.responseTo(t, out[i].ID); json.Unmarshal(r.Result, &res) != nil || res.ProtocolVersion != version {
		t.Errorf("the server answered initialize with %s, want version %s", r.Raw, version)
	}
	for _, m := range out[i+2:] {
		if m.Method == "initialize" || metaVersion(m) != "" {
			t.Errorf("a legacy session sent %s", m.Raw)
		}
	}
}

// assertModernHandshake checks a 2026-07-28 session: server/discover first,
// answered with a result that lists 2026-07-28, no initialize at all, and
// every later request carries the version in its _meta.
func (p peerRun) assertModernHandshake(t *testing.T) {
	t.Helper()
	discover := p.requests("server/discover")
	if len(discover) != 1 || !p.wire[0].Out || p.wire[0].Method != "server/discover" || metaVersion(discover[0]) != "2026-07-28" {
		t.Fatalf("the session did not open with one server/discover for 2026-07-28: %s", p.wireDump())
	}
	if r := p.responseTo(t, discover[0].ID); !listsModern(r) {
		t.Fatalf("server/discover answer does not list 2026-07-28: %s", r.Raw)
	}
	if p.sent("initialize") || p.sent("notifications/initialized") {
		t.Errorf("a modern session sent the legacy handshake: %s", p.wireDump())
	}
	for _, m := range p.wire {
		if m.Out && m.isRequest() && metaVersion(m) != "2026-07-28" {
			t.Errorf("request without the 2026-07-28 _meta: %s", m.Raw)
		}
	}
}

// listsModern reports whether a server/discover answer lists 2026-07-28.
func listsModern(answer wireMsg) bool {
	var res struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	return json.Unmarshal(answer.Result, &res) == nil && slices.Contains(res.SupportedVersions, "2026-07-28")
}

// wireDump renders the wire for a failure message.
func (p peerRun) wireDump() string {
	var b strings.Builder
	for _, m := range p.wire {
		dir := "← "
		if m.Out {
			dir = "→ "
		}
		b.WriteString("\n" + dir + termtext.Ellipsis(string(m.Raw), 300))
	}
	return b.String()
}

// mcpscopeWithin runs mcpscope and fails the test if it is still running
// after bound.
func mcpscopeWithin(t *testing.T, bound time.Duration, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := Execute(ctx, args, strings.NewReader(""), &out, &errb)
		done <- result{code: code, stdout: out.String(), stderr: errb.String()}
	}()
	timer := time.NewTimer(bound)
	defer timer.Stop()
	select {
	case r := <-done:
		return r
	case <-timer.C:
		cancel()
		<-done
		t.Fatalf("mcpscope %s was still running after %s", termtext.Ellipsis(strings.Join(args, " "), 200), bound)
		return result{}
	}
}
