package tokencost

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// What a host puts in the model's context is a tool's name, description
// and input schema: an icon's data URI, annotations, the output schema
// and _meta are not counted, and the count is the library's own count of
// exactly that text.
func TestCountModelEqualsLibrary(t *testing.T) {
	icon := "data:image/png;base64," + strings.Repeat("iVBORw0KGgo", 400)
	entry := json.RawMessage(`{"name":"greet","title":"Greet","description":"Says hi.",
	  "inputSchema":{"type":"object","properties":{"name":{"type":"string"}}},
	  "outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},
	  "icons":[{"src":"` + icon + `"}],"_meta":{"big":"` + strings.Repeat("m", 2000) + `"}}`)
	whole := Entries(KindTool, []json.RawMessage{entry})[0]
	model := whole.ForModel()
	want := `{"name":"greet","description":"Says hi.","inputSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`
	if model.Text() != want || model.Name != "greet" {
		t.Fatalf("model text %s", model.Text())
	}
	table, err := Measure(context.Background(), Encodings, DefaultWindow, []Entry{model})
	if err != nil {
		t.Fatal(err)
	}
	wholeTable, err := Measure(context.Background(), Encodings, DefaultWindow, []Entry{whole})
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range Encodings {
		if got, lib := table.Items[0].Tokens[enc], libraryCount(t, enc, want); got != lib || got == 0 {
			t.Errorf("%s: counted %d, the library counts %d", enc, got, lib)
		}
		if wholeTable.Items[0].Tokens[enc] <= 10*table.Items[0].Tokens[enc] {
			t.Errorf("%s: the whole entry %d, the model's part %d", enc, wholeTable.Items[0].Tokens[enc], table.Items[0].Tokens[enc])
		}
	}
	for kind, in := range map[string]string{
		KindPrompt:           `{"name":"p","description":"d","arguments":[{"name":"a"}],"icons":[],"_meta":{}}`,
		KindResourceTemplate: `{"uriTemplate":"file:///{p}","name":"f","title":"F","description":"d","mimeType":"text/plain","annotations":{}}`,
	} {
		got := Entries(kind, []json.RawMessage{json.RawMessage(in)})[0].ForModel().Text()
		if strings.Contains(got, "icons") || strings.Contains(got, "annotations") || strings.Contains(got, "title") || !strings.Contains(got, `"description":"d"`) {
			t.Errorf("%s: %s", kind, got)
		}
	}
}

// An encoding named twice counts once: the total is the items' sum.
func TestMeasureDedupesEncodings(t *testing.T) {
	e := Entries(KindTool, []json.RawMessage{json.RawMessage(`{"name":"echo"}`)})
	tab, err := Measure(context.Background(), []string{"cl100k_base", "cl100k_base"}, DefaultWindow, e)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Encodings) != 1 || tab.Total["cl100k_base"] != tab.Items[0].Tokens["cl100k_base"] {
		t.Fatalf("encodings %v, one item of %d tokens, total %d", tab.Encodings, tab.Items[0].Tokens["cl100k_base"], tab.Total["cl100k_base"])
	}
}

// Counting that stops keeps the table of what it counted, and says how
// many entries it did not count.
func TestMeasureKeepsWhatItCounted(t *testing.T) {
	stop := errors.New("time is up")
	calls := 0
	count = func(enc, text string) (int, error) {
		calls++
		if calls > 2 {
			return 0, stop
		}
		return Count(enc, text)
	}
	defer func() { count = Count }()
	e := Entries(KindTool, []json.RawMessage{json.RawMessage(`{"name":"a"}`), json.RawMessage(`{"name":"b"}`), json.RawMessage(`{"name":"c"}`)})
	tab, err := Measure(context.Background(), []string{"cl100k_base"}, DefaultWindow, e)
	if !errors.Is(err, stop) || len(tab.Items) != 2 || tab.Uncounted != 1 || tab.Total["cl100k_base"] == 0 {
		t.Fatalf("err %v, items %+v, uncounted %d, total %v", err, tab.Items, tab.Uncounted, tab.Total)
	}
}
