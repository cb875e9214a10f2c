package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Stub mode "slow-probe": a legacy server that never answers
// server/discover and refuses initialize, writing every line it reads to
// the file $probeLogEnv, then "EOF" once its stdin is closed.
const (
	slowProbeMode = "slow-probe"
	probeLogEnv   = "MCPSCOPE_CLI_PROBE_LOG"
)

func init() {
	stubTakeovers[slowProbeMode] = func() int {
		log, err := os.Create(os.Getenv(probeLogEnv))
		if err != nil {
			return 1
		}
		defer log.Close()
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			fmt.Fprintf(log, "%s\n", in.Bytes())
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(in.Bytes(), &m) == nil && m.Method == "initialize" {
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"not today"}}`+"\n", m.ID)
			}
		}
		fmt.Fprintln(log, "EOF")
		return 0
	}
}

// TestLateProbeNotCancelledAtClose: the server/discover probe gets no
// answer in its wait, the fallback initialize is refused, and the
// connection closes: no notifications/cancelled for the probe goes out
// (there is no session for it to belong to). The probe's wait is the
// --timeout; so is the wait for the refusal of initialize, which under
// the race detector on a loaded machine took over 300 ms once: 2 s.
func TestLateProbeNotCancelledAtClose(t *testing.T) {
	argv, env := stubArgv(t, slowProbeMode)
	log := filepath.Join(t.TempDir(), "wire.log")
	r := mcpscope(t, withTarget(argv, "tools", "--timeout", "2s", "--env", env, "--env", probeLogEnv+"="+log)...)
	r.mustExit(t, ExitRPCError)
	wire, err := os.ReadFile(log)
	if err != nil || !bytes.HasSuffix(wire, []byte("EOF\n")) {
		t.Fatalf("the server did not read to the end of its input (%v):\n%s", err, wire)
	}
	if strings.Contains(string(wire), "notifications/cancelled") {
		t.Fatalf("a cancellation went out for the probe:\n%s", wire)
	}
	if !strings.Contains(string(wire), `"method":"initialize"`) {
		t.Fatalf("the fallback initialize was not sent:\n%s", wire)
	}
}
