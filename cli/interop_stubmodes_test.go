package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Modes of the stub server (stubserver_test.go) added for the
// interoperability tests. A takeover replaces the stub entirely; a request
// hook sees each request of the ordinary stub first and reports whether it
// answered it.
var (
	stubTakeovers = map[string]func() int{
		"wiretap": wiretap,
	}
	stubRequestHooks = map[string]func(out *bufio.Writer, method string, id json.RawMessage) bool{
		"crash":  crashOnCall,
		"giant":  giantLineBeforeTools,
		"answer": answerFromEnv,
	}
)

// wiretapLogEnv names the file the wiretap writes every relayed line to;
// wiretapDelayEnv, when set, is how long it waits before starting the
// server (a Go duration), to play a server that is slow to start.
const (
	wiretapLogEnv   = "MCPSCOPE_CLI_WIRETAP_LOG"
	wiretapDelayEnv = "MCPSCOPE_CLI_WIRETAP_DELAY"
)

// Directions of a wiretap log line: its first byte.
const (
	wireToServer   = '>'
	wireFromServer = '<'
	wireStderr     = '!'
)

// wiretap runs the real server named by its arguments and relays stdin and
// stdout between mcpscope and the server byte for byte, logging each line
// with its direction; the server's stderr is relayed and logged too. It exits with the
// server's status once the server has closed its stdout and exited.
func wiretap() int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "wiretap: no server command")
		return 2
	}
	logFile, err := os.Create(os.Getenv(wiretapLogEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "wiretap:", err)
		return 2
	}
	defer logFile.Close()
	if d, err := time.ParseDuration(os.Getenv(wiretapDelayEnv)); err == nil {
		time.Sleep(d)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Env = withoutEnv(os.Environ(), stubServerEnv, wiretapLogEnv, wiretapDelayEnv)
	toServer, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wiretap:", err)
		return 2
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wiretap:", err)
		return 2
	}
	serverStderr, err := cmd.StderrPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wiretap:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "wiretap:", err)
		return 127
	}
	var mu sync.Mutex
	record := func(dir byte, line []byte) {
		mu.Lock()
		defer mu.Unlock()
		entry := append([]byte{dir}, bytes.TrimSuffix(line, []byte("\n"))...)
		_, _ = logFile.Write(append(entry, '\n'))
	}
	go func() {
		relayLines(os.Stdin, toServer, wireToServer, record)
		toServer.Close()
	}()
	var stderrDone sync.WaitGroup
	stderrDone.Go(func() { relayLines(serverStderr, os.Stderr, wireStderr, record) })
	relayLines(fromServer, os.Stdout, wireFromServer, record)
	stderrDone.Wait()
	if err := cmd.Wait(); err != nil && cmd.ProcessState == nil {
		return 1
	}
	if code := cmd.ProcessState.ExitCode(); code >= 0 {
		return code
	}
	return 1
}

// relayLines copies r to w line by line, recording each line before it is
// passed on, until r ends or w fails.
func relayLines(r io.Reader, w io.Writer, dir byte, record func(byte, []byte)) {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			record(dir, line)
			if _, werr := w.Write(line); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// withoutEnv returns env without the entries of the given keys.
func withoutEnv(env []string, keys ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, key := range keys {
			drop = drop || k == key
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// crashExitStatus and crashLastWords are how the "crash" stub dies.
const (
	crashExitStatus = 7
	crashLastWords  = "stub: cannot serve tools/call, giving up"
)

// crashOnCall makes the stub die in the middle of a tools/call: it reads the
// request, says why on stderr and exits without answering.
func crashOnCall(_ *bufio.Writer, method string, _ json.RawMessage) bool {
	if method != "tools/call" {
		return false
	}
	fmt.Fprintln(os.Stderr, "stub: got tools/call")
	fmt.Fprintln(os.Stderr, crashLastWords)
	os.Exit(crashExitStatus)
	return true
}

// giantLineSize is the length of the line the "giant" stub writes, its LF
// not included: 2 GiB.
const giantLineSize = 2 << 30

// giantLineBeforeTools answers tools/list only after a 2 GiB line without a
// newline inside, streamed in chunks so the stub itself stays small.
func giantLineBeforeTools(out *bufio.Writer, method string, id json.RawMessage) bool {
	if method != "tools/list" {
		return false
	}
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for written := 0; written < giantLineSize; written += len(chunk) {
		if _, err := out.Write(chunk[:min(len(chunk), giantLineSize-written)]); err != nil {
			os.Exit(1)
		}
	}
	out.WriteString("\n")
	out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"tools":[{"name":"after-the-giant","inputSchema":{"type":"object"}}]}}` + "\n")
	out.Flush()
	return true
}
