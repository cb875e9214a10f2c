package tokencost

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/tiktoken-go/tokenizer"
)

// libraryCount is the tokenizer library's own count of text, reached
// without this package.
func libraryCount(t *testing.T, encoding, text string) int {
	t.Helper()
	c, err := tokenizer.Get(tokenizer.Encoding(encoding))
	if err != nil {
		t.Fatal(err)
	}
	ids, _, err := c.Encode(text)
	if err != nil {
		t.Fatal(err)
	}
	return len(ids)
}

// Known answers catch a mis-wired encoding: the counts tiktoken gives.
func TestCountKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		enc, text string
		want      int
	}{
		{"cl100k_base", "hello world", 2},
		{"o200k_base", "hello world", 2},
		{"cl100k_base", "tiktoken is great!", 6},
		{"cl100k_base", "", 0},
	} {
		got, err := Count(c.enc, c.text)
		if err != nil || got != c.want {
			t.Errorf("Count(%s, %q) = %d, %v; want %d", c.enc, c.text, got, err, c.want)
		}
	}
}

// A tool's entry costs what the library counts for its compact JSON.
func TestCountEqualsLibrary(t *testing.T) {
	entry := json.RawMessage(`{
	  "name": "get-weather",
	  "description": "Gets the weather for a city. Ünïcödé, emoji 🌦 and <|endoftext|> are plain text.",
	  "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
	}`)
	e := Entries(KindTool, []json.RawMessage{entry})[0]
	if e.Name != "get-weather" || strings.ContainsAny(e.Text(), "\n\t") {
		t.Fatalf("entry %q, text %q", e.Name, e.Text())
	}
	table, err := Measure(context.Background(), Encodings, DefaultWindow, []Entry{e})
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range Encodings {
		want := libraryCount(t, enc, e.Text())
		if got := table.Items[0].Tokens[enc]; got != want || table.Total[enc] != want || want == 0 {
			t.Errorf("%s: item %d, total %d; the library counts %d", enc, got, table.Total[enc], want)
		}
	}
}

// Items are sorted by cost, the dearest first, and the total and its
// share of the window add up.
func TestMeasureSortsAndTotals(t *testing.T) {
	tools := Entries(KindTool, []json.RawMessage{
		json.RawMessage(`{"name":"short"}`),
		json.RawMessage(`{"name":"long","description":"` + strings.Repeat("many words here ", 40) + `"}`),
		json.RawMessage(`[1,2]`), // no object: named by its place
	})
	templates := Entries(KindResourceTemplate, []json.RawMessage{json.RawMessage(`{"uriTemplate":"file:///{path}"}`)})
	table, err := Measure(context.Background(), []string{"cl100k_base"}, 1000, append(tools, templates...))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	sum := 0
	for i, it := range table.Items {
		names = append(names, it.Name)
		sum += it.Tokens["cl100k_base"]
		if i > 0 && it.Tokens["cl100k_base"] > table.Items[i-1].Tokens["cl100k_base"] {
			t.Errorf("item %d costs more than the one before: %+v", i, table.Items)
		}
	}
	if names[0] != "long" || !strings.Contains(strings.Join(names, " "), "#2") || !strings.Contains(strings.Join(names, " "), "file:///{path}") {
		t.Errorf("names %v", names)
	}
	if table.Total["cl100k_base"] != sum || table.Share("cl100k_base") != 100*float64(sum)/1000 {
		t.Errorf("total %v, share %v; sum %d", table.Total, table.Share("cl100k_base"), sum)
	}
}

func TestCountRefusesUnknownEncoding(t *testing.T) {
	if _, err := Count("o300k_base", "x"); err == nil || !strings.Contains(err.Error(), "o200k_base") {
		t.Errorf("err %v", err)
	}
	if _, err := Measure(context.Background(), nil, DefaultWindow, nil); err == nil {
		t.Error("no encoding: no error")
	}
	if _, err := Measure(context.Background(), Encodings, 0, nil); err == nil {
		t.Error("window 0: no error")
	}
}

// A text built to make the tokenizer slow costs no more than the
// context's time: the wait ends with the context.
func TestCountContextEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CountContext(ctx, "cl100k_base", "hello"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	release := make(chan struct{})
	defer close(release)
	count = func(string, string) (int, error) { <-release; return 0, nil } // a count that never ends by itself
	defer func() { count = Count }()
	ctx, stop := context.WithCancelCause(context.Background())
	stopped := errors.New("the run's time is up")
	done := make(chan error, 1)
	go func() {
		_, err := CountContext(ctx, "cl100k_base", "hello")
		done <- err
	}()
	stop(stopped)
	select {
	case err := <-done:
		if !errors.Is(err, stopped) {
			t.Errorf("stopped: %v", err)
		}
	case <-time.After(guard.Hang):
		t.Fatal("CountContext still waits after its context ended")
	}
}

// FuzzCount: any text a server sends counts without a panic, the same as
// the library counts it.
func FuzzCount(f *testing.F) {
	for _, s := range []string{"hello world", `{"name":"x","description":"\u001b[2J"}`, "\xff\xfe", "<|endoftext|>", "日本語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<10 {
			return // the split pattern is quadratic in a run of spaces
		}
		for _, enc := range Encodings {
			n, err := Count(enc, text)
			if err != nil {
				t.Fatal(err)
			}
			if want := libraryCount(t, enc, text); n != want {
				t.Fatalf("%s: %d, library %d", enc, n, want)
			}
		}
	})
}

// FuzzEntries: any listing entry a server sends gets a name and a text to
// count, without a panic; the text of valid JSON is that JSON, compact.
func FuzzEntries(f *testing.F) {
	for _, s := range []string{`{"name":"echo","inputSchema":{"type":"object"}}`, `{"uriTemplate":"file:///{p}"}`, `[1]`, `"x"`, `{"name":7}`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		e := Entries(KindTool, []json.RawMessage{raw})[0]
		if e.Name == "" {
			t.Fatalf("entry %q has no name", raw)
		}
		if json.Valid(raw) && !json.Valid([]byte(e.Text())) {
			t.Fatalf("text %q of valid %q is not JSON", e.Text(), raw)
		}
		if m := e.ForModel(); json.Valid(raw) && !json.Valid([]byte(m.Text())) {
			t.Fatalf("model text %q of valid %q is not JSON", m.Text(), raw)
		}
	})
}
