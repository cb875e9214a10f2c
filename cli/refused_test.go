package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// requestFloodMode makes the test binary a hostile stdio server (see
// TestMain): asked tools/call, it writes a flood of requests without
// reading a byte, then reads and counts the answers, and answers the call
// with the counts. In requestFloodDeafMode it never reads again after the
// flood, and keeps the call alive with progress instead.
const (
	requestFloodMode     = "request-flood"
	requestFloodDeafMode = "request-flood-deaf"
)

// Size of the request flood: requestFloodRoots roots/list requests (more
// than the answers a pipe holds plus the 256 the client answers at once),
// then requestFloodPings pings.
const (
	requestFloodRoots = 5_000
	requestFloodPings = 20_000
	requestFloodCount = requestFloodRoots + requestFloodPings
	// requestFloodWait bounds the server's wait for the answers, and the
	// deaf server's progress: one condition, so guard.Hang. A
	// healthy run has all the answers in a second or two.
	requestFloodWait = guard.Hang
	// requestFloodProgress is the pace of the deaf server's progress.
	requestFloodProgress = 200 * time.Millisecond
)

func init() {
	stubTakeovers[requestFloodMode] = func() int { return requestFlood(false) }
	stubTakeovers[requestFloodDeafMode] = func() int { return requestFlood(true) }
}

// floodCounts are the answers the flooding server got.
type floodCounts struct {
	Pings, Roots, Busy, Duplicates, Other, Answered int
}

// requestFlood plays the flooding server; a deaf one never reads the
// answers.
func requestFlood(deaf bool) int {
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
			if deaf {
				floodDeaf(m.ID)
				return 0
			}
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

// writeFlood writes the whole flood of requests, reading nothing; after
// each request it calls between, when given, with the request's number.
func writeFlood(between func(i int)) {
	for i := 1; i <= requestFloodCount; i++ {
		method := "ping"
		if i <= requestFloodRoots {
			method = "roots/list"
		}
		_, _ = os.Stdout.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"` + method + `"}` + "\n")
		if between != nil {
			between(i)
		}
	}
}

// requestFloodProgressEvery is how many requests of the deaf flood go
// between two progress notifications.
const requestFloodProgressEvery = 1000

// floodDeaf writes the flood with a progress for the call with id (its
// progress token) after every requestFloodProgressEvery requests, then
// progress every requestFloodProgress until stdout is closed, never
// reading again. The progress within the flood keeps the call alive
// however slowly the client reads the flood (under the race detector on a
// loaded machine, 25k requests took it over the 2 s --timeout), so that
// what ends the run is the answers not taken, not the call's wait.
func floodDeaf(id json.RawMessage) {
	progress := 0
	report := func() error {
		progress++
		_, err := os.Stdout.WriteString(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + string(id) + `,"progress":` + strconv.Itoa(progress) + `}}` + "\n")
		return err
	}
	writeFlood(func(i int) {
		if i%requestFloodProgressEvery == 0 {
			_ = report()
		}
	})
	for i := 1; time.Duration(i)*requestFloodProgress < requestFloodWait; i++ {
		if report() != nil {
			return
		}
		time.Sleep(requestFloodProgress)
	}
}

// floodAndCount writes the whole flood without reading, then counts the
// answers by id.
func floodAndCount(in *bufio.Scanner) floodCounts {
	writeFlood(nil)
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

// A server that writes 5k roots/list and 20k pings before it reads a byte
// of the answers: mcpscope reads them all without waiting on its writes
// (else both sides would wait for the other until --timeout), and once
// the server reads, every ping is answered {}, every
// roots/list with the roots or, once 256 are in flight, a busy error, none
// twice, and the run warns of the refusals with their exact count.
func TestE2ERequestFloodAllAnswered(t *testing.T) {
	argv, env := stubArgv(t, requestFloodMode)
	r := mcpscope(t, withTarget(argv, "call", "--env", env, "--protocol", "2025-11-25", "--timeout", "15s",
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
		t.Fatalf("the server got %s (it waits %s for the answers), want all %d answered: %d pings {}, %d roots/list answered or busy",
			m[0], requestFloodWait, requestFloodCount, requestFloodPings, requestFloodRoots)
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

// A server that writes 20k pings and never reads again, keeping the call
// alive with progress: the answers queued for it cannot go out, and the
// run ends within --timeout of the stuck write with exit 3, saying that
// the server stopped reading and how much was queued for it.
func TestE2ERequestFloodToADeafServer(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, requestFloodDeafMode)
	r := mcpscopeWithin(t, guard.Hang, withTarget(argv, "call", "--env", env, "--protocol", "2025-11-25", "--timeout", "2s",
		"--progress", "tools/call", `{"name":"flood"}`)...)
	r.mustExit(t, ExitConnection)
	r.mustSayFirst(t, `^error: .*the server stopped reading: \d+ messages / \d+ bytes queued for it, not taken within 2s`)
	if r.stdout != "" {
		t.Fatalf("stdout %q", r.stdout)
	}
}

// One refused request or one unsent answer is counted in the singular.
func TestCountsOfOneAreSingular(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{refusedWarning(1), "warning: the server sent more requests than mcpscope answers at once (256); 1 was refused with a busy error (-32000)"},
		{refusedWarning(2), "warning: the server sent more requests than mcpscope answers at once (256); 2 were refused with a busy error (-32000)"},
		{unsentMessage(1), "1 answer to the server's requests could not be sent; the server never got it"},
		{unsentMessage(3), "3 answers to the server's requests could not be sent; the server never got them"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
