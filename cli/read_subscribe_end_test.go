package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// subscribeUnansweredMode is a stub server that declares
// resources.subscribe, answers resources/read, and never answers
// resources/subscribe.
const subscribeUnansweredMode = "subscribe-unanswered"

func init() {
	stubRequestHooks[subscribeUnansweredMode] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		reply := func(result string) {
			out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + "}\n")
			out.Flush()
		}
		switch method {
		case "initialize":
			reply(`{"protocolVersion":"2025-11-25","capabilities":{"resources":{"subscribe":true}},"serverInfo":{"name":"stub","version":"1"}}`)
		case "resources/read":
			reply(`{"contents":[{"uri":"stub://watched","text":"hello"}]}`)
		case "resources/subscribe":
		default:
			return false
		}
		return true
	}
}

// TestReadSubscribeMaxTimeBeforeTheServerAgrees: --max-time ends the
// watch while resources/subscribe is still unanswered; the read printed,
// so the watch ends well (exit 0) and says why nothing followed.
func TestReadSubscribeMaxTimeBeforeTheServerAgrees(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, subscribeUnansweredMode)
	r := mcpscope(t, withTarget(argv, "read", "--env", env, "--subscribe", "--max-time", "1s", "stub://watched")...)
	r.mustExit(t, ExitOK)
	if got := readLines(t, r); len(got) != 1 {
		t.Fatalf("%d reads, want 1:\n%s", len(got), r.stdout)
	}
	if !strings.Contains(r.stderr, "(--max-time): the server did not agree to the subscription in that time") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// TestReadSubscribeCtrlC: Ctrl-C (SIGINT) ends a watch of the real binary
// that printed a read with exit 0, as --help and the docs promise.
func TestReadSubscribeCtrlC(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, builtBinary(t), "read", "--subscribe", "--max-time", "50s", "test://watched-resource", "--", peertest.GoSDKConformance(t))
	cmd.Env = append(cmd.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "MCPSCOPE_KEYRING=off")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	var said []string
	for lines.Scan() && !strings.HasPrefix(lines.Text(), "subscribed to ") {
		said = append(said, lines.Text())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		said = append(said, lines.Text())
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) || err != nil {
		t.Fatalf("exit: %v, want 0; stderr:\n%s", err, strings.Join(said, "\n"))
	}
	if !strings.Contains(stdout.String(), `"contents"`) {
		t.Errorf("no read on stdout: %q", stdout.String())
	}
}
