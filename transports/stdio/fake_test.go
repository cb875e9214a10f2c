//go:build unix

package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// fakeEnv selects the fake server mode when the test binary runs as one.
const fakeEnv = "MCPSCOPE_STDIO_FAKE"

// fifoEnv names the FIFO the "ignore-stdin-close" server holds open.
const fifoEnv = "MCPSCOPE_STDIO_FIFO"

// bigLineSize is the length of the line the "bigline" server writes, LF excluded.
const bigLineSize int64 = 2 << 30

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(runFake(mode))
	}
	os.Exit(m.Run())
}

// fakeArgv is the command line that runs this test binary as a fake server.
func fakeArgv(t testing.TB) (string, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("locating the test binary: %v", err)
	}
	return exe, []string{"-test.run=^$"}
}

// runFake is a tiny, deliberately misbehaving MCP server.
func runFake(mode string) int {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	switch mode {
	case "echo":
		return echoLoop(in, out, "\n")
	case "echo-crlf":
		return echoLoop(in, out, "\r\n")
	case "junk":
		fmt.Fprintln(out, "Hello from the server!")
		fmt.Fprintln(out, `{"note":"valid JSON, not JSON-RPC"}`)
		return echoLoop(in, out, "\n")
	case "die":
		in.ReadBytes('\n')
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "fatal: boom")
		return 3
	case "bigline":
		req, _ := in.ReadBytes('\n')
		chunk := bytes.Repeat([]byte{'a'}, 1<<20)
		for written := int64(0); written < bigLineSize; written += int64(len(chunk)) {
			if _, err := out.Write(chunk); err != nil {
				return 1
			}
		}
		out.WriteString("\n")
		writeEcho(out, req, "\n")
		out.Flush()
		return echoLoop(in, out, "\n")
	case "stderr-flood":
		w := bufio.NewWriter(os.Stderr)
		for i := range 5000 {
			fmt.Fprintf(w, "log line %d\n", i)
		}
		w.WriteString(strings.Repeat("x", 200<<10) + "\n") // over the stderr line limit
		fmt.Fprintln(w, "last words")
		w.Flush()
		return echoLoop(in, out, "\n")
	case "ignore-stdin-close":
		signal.Ignore(syscall.SIGTERM)
		// The test reads the FIFO until EOF: it ends only when this process
		// and its child, both holding it open, are gone.
		fifo, err := os.OpenFile(os.Getenv(fifoEnv), os.O_WRONLY, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "cannot open the FIFO:", err)
			return 2
		}
		child := startSleeper(fifo)
		fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"ready","params":{"pid":%d,"child":%d}}`+"\n", os.Getpid(), child)
		out.Flush()
		io.Copy(io.Discard, in)
		select {}
	case "deaf":
		usr1 := make(chan os.Signal, 1)
		signal.Notify(usr1, syscall.SIGUSR1)
		fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"ready","params":{"pid":%d}}`+"\n", os.Getpid())
		out.Flush()
		<-usr1 // stdin is not read until then
		return echoLoop(in, out, "\n")
	case "close-stdout":
		in.ReadBytes('\n')
		os.Stdout.Close()
		fmt.Fprintln(os.Stderr, "closed stdout")
		io.Copy(io.Discard, in) // runs on until stdin closes
		return 0
	case "die-orphan":
		startSleeper(nil) // keeps stdout and stderr open after this process is gone
		in.ReadBytes('\n')
		fmt.Fprintln(os.Stderr, "fatal: orphaned")
		return 4
	case "slow-reader":
		buf := make([]byte, 16<<10)
		for { // 16 KB every 10 ms: about 1.6 MB/s, steadily
			if _, err := in.Read(buf); err != nil {
				return 0
			}
			time.Sleep(10 * time.Millisecond)
		}
	case "sleep":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(guard.Run) // until killed; past every wait of the tests
		return 0
	}
	fmt.Fprintf(os.Stderr, "unknown fake mode %q\n", mode)
	return 2
}

// startSleeper runs a child in this process group that ignores SIGTERM and
// inherits stdout, stderr and extra (when not nil).
func startSleeper(extra *os.File) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fakeEnv+"=sleep")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if extra != nil {
		cmd.ExtraFiles = []*os.File{extra}
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot start the sleeper:", err)
		os.Exit(2)
	}
	return cmd.Process.Pid
}

// echoLoop answers every request with {"echo": params}, "env" with an
// environment variable and "cwd" with the working directory. A line that
// does not parse ends the server with status 2: the tests use this to prove
// that frames never interleave.
func echoLoop(in *bufio.Reader, out *bufio.Writer, eol string) int {
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if !writeEcho(out, line, eol) {
				return 2
			}
			out.Flush()
		}
		if err != nil {
			return 0
		}
	}
}

// writeEcho answers one request line; false when the line is not JSON.
func writeEcho(out *bufio.Writer, line []byte, eol string) bool {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(line, &req); err != nil {
		fmt.Fprintf(os.Stderr, "interleaved or broken line %q: %v\n", line, err)
		return false
	}
	if req.ID == nil {
		return true // a notification
	}
	var result any
	switch req.Method {
	case "env":
		var p struct{ Name string }
		json.Unmarshal(req.Params, &p)
		v, ok := os.LookupEnv(p.Name)
		result = map[string]any{"value": v, "set": ok}
	case "cwd":
		wd, _ := os.Getwd()
		result = map[string]string{"cwd": wd}
	default:
		result = map[string]json.RawMessage{"echo": req.Params}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	out.Write(body)
	out.WriteString(eol)
	return true
}
