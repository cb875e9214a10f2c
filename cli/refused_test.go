package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
)

// requestFloodMode makes the test binary a hostile stdio server (see
// TestMain): asked tools/call, it floods the client with requests while
// not reading its answers, then reads and counts them, and answers the
// call with the counts.
const requestFloodMode = "request-flood"

// Size of the request flood: requestFloodRoots roots/list requests (more
// than the answers a pipe holds plus the 256 the client answers at once),
// then requestFloodPings pings.
const (
	requestFloodRoots = 5_000
	requestFloodPings = 200_000
	requestFloodCount = requestFloodRoots + requestFloodPings
	// requestFloodStall is how long the flood's writes must make no
	// progress before the server starts reading the answers.
	requestFloodStall = 300 * time.Millisecond
	// requestFloodWait bounds the server's wait for the answers.
	requestFloodWait = 90 * time.Second
)

func init() { stubTakeovers[requestFloodMode] = requestFlood }

// floodCounts are the answers the flooding server got.
type floodCounts struct {
	Pings, Roots, Busy, Duplicates, Other, Answered int
}

// requestFlood plays the flooding server.
func requestFlood() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	say := func(s string) { _, _ = os.Stdout.WriteString(s + "\n") }
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue
		}
		switch m.Method {
		case "initialize":
			say(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"flood","version":"1"}}}`)
		case "tools/call":
			c := floodAndCount(in)
			text, _ := json.Marshal(fmt.Sprintf("answered %d pings=%d roots=%d busy=%d duplicates=%d other=%d",
				c.Answered, c.Pings, c.Roots, c.Busy, c.Duplicates, c.Other))
			say(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":` + string(text) + `}]}}`)
		default:
			say(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
		}
	}
	return 0
}

// floodAndCount writes the flood without reading until the writes stall
// (the client pushes back), then counts the answers by id.
func floodAndCount(in *bufio.Scanner) floodCounts {
	var written atomic.Int64
	go func() {
		for i := 1; i <= requestFloodCount; i++ {
			method := "ping"
			if i <= requestFloodRoots {
				method = "roots/list"
			}
			_, _ = os.Stdout.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"` + method + `"}` + "\n")
			written.Add(1)
		}
	}()
	for last := int64(-1); ; {
		time.Sleep(requestFloodStall)
		n := written.Load()
		if n == last || n == requestFloodCount {
			break
		}
		last = n
	}
	var c floodCounts
	seen := make([]bool, requestFloodCount+1)
	deadline := time.Now().Add(requestFloodWait)
	for c.Answered < requestFloodCount && time.Now().Before(deadline) && in.Scan() {
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || m.ID < 1 || m.ID > requestFloodCount {
			c.Other++
			continue
		}
		if seen[m.ID] {
			c.Duplicates++
			continue
		}
		seen[m.ID] = true
		c.Answered++
		roots := m.ID <= requestFloodRoots
		switch {
		case m.Error != nil && m.Error.Code == client.CodeClientBusy && roots:
			c.Busy++
		case m.Error == nil && string(m.Result) == `{}` && !roots:
			c.Pings++
		case m.Error == nil && roots:
			c.Roots++
		default:
			c.Other++
		}
	}
	return c
}

// A server that floods 5k roots/list and 200k pings while not reading the
// answers is slowed down, not ignored: every ping is answered {}, every
// roots/list with the roots or, once 256 are in flight, a busy error, none
// twice, and the run warns of the refusals with their exact count.
func TestE2ERequestFloodAllAnswered(t *testing.T) {
	argv, env := stubArgv(t, requestFloodMode)
	r := mcpscope(t, withTarget(argv, "call", "--env", env, "--protocol", "2025-11-25", "--timeout", "100s",
		"tools/call", `{"name":"flood"}`)...)
	r.mustExit(t, ExitOK)
	m := regexp.MustCompile(`answered (\d+) pings=(\d+) roots=(\d+) busy=(\d+) duplicates=(\d+) other=(\d+)`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("stdout %q holds no counts", r.stdout)
	}
	n := make([]int, len(m))
	for i := 1; i < len(m); i++ {
		n[i], _ = strconv.Atoi(m[i])
	}
	if n[1] != requestFloodCount || n[2] != requestFloodPings || n[3]+n[4] != requestFloodRoots || n[5] != 0 || n[6] != 0 {
		t.Fatalf("the server got %s, want all %d answered: %d pings {}, %d roots/list answered or busy",
			m[0], requestFloodCount, requestFloodPings, requestFloodRoots)
	}
	if n[4] == 0 {
		t.Fatalf("no roots/list was refused although 256 were stuck: %s", m[0])
	}
	want := fmt.Sprintf("warning: the server sent more requests than mcpscope answers at once (256); %d were refused with a busy error (-32000)\n", n[4])
	if r.stderr != want {
		t.Fatalf("stderr %q, want %q", r.stderr, want)
	}
	t.Logf("%s", m[0])
}
