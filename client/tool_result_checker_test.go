package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
)

// A judge of many results compiles the outputSchema once, however large
// (past the 64 KiB that schemacheck's cache keeps), even when results are
// judged from many goroutines at once; and it judges as CheckToolResult.
func TestToolResultCheckerCompilesOnce(t *testing.T) {
	var compiled atomic.Int32
	compileSchema = func(s json.RawMessage) (*schemacheck.Schema, error) {
		compiled.Add(1)
		return schemacheck.Compile(s)
	}
	defer func() { compileSchema = schemacheck.Compile }()

	props := make([]string, 0, 1500)
	for i := range 1500 {
		props = append(props, fmt.Sprintf(`"field_number_%04d":{"type":"string","description":"a field of the result"}`, i))
	}
	schema := json.RawMessage(`{"type":"object","required":["field_number_0001"],"properties":{` + strings.Join(props, ",") + `}}`)
	if len(schema) <= 64<<10 {
		t.Fatalf("the schema has %d bytes, want more than the cache keeps", len(schema))
	}
	good := json.RawMessage(`{"content":[],"structuredContent":{"field_number_0001":"x"}}`)
	bad := json.RawMessage(`{"content":[],"structuredContent":{"field_number_0001":7}}`)
	check := ToolResultChecker("big", schema)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				if f := check(good); f != nil {
					t.Errorf("a valid result failed: %v", f)
				}
				if f := check(bad); f == nil || f.Kind != ToolOutputInvalid {
					t.Errorf("an invalid result: %v", f)
				}
			}
		})
	}
	wg.Wait()
	if n := compiled.Load(); n != 1 {
		t.Errorf("the outputSchema was compiled %d times for 80 results, want once", n)
	}
	if f := check(json.RawMessage(`{"content":[],"isError":true}`)); f == nil || f.Kind != ToolIsError || compiled.Load() != 1 {
		t.Errorf("isError was not judged first, without the schema: %v", f)
	}
	if f := CheckToolResult("big", bad, schema); f == nil || f.Error() != check(bad).Error() {
		t.Errorf("CheckToolResult and the judge disagree: %v", f)
	}
}

// FuzzToolResultChecker feeds the judge a server's result and outputSchema:
// it never panics, judges the same result alike twice (the schema then
// compiled), and agrees with CheckToolResult.
func FuzzToolResultChecker(f *testing.F) {
	f.Add([]byte(`{"content":[],"structuredContent":{"n":"x"}}`), []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`))
	f.Add([]byte(`{"content":[{"type":"text","text":"\u001b]0;x\u0007"}],"isError":true}`), []byte(`null`))
	f.Add([]byte(`{"structuredContent":1,"resultType":"input_required"}`), []byte(`{"$ref":"http://elsewhere/s"}`))
	f.Fuzz(func(t *testing.T, result, schema []byte) {
		check := ToolResultChecker("t", schema)
		first, second := check(result), check(result)
		want := CheckToolResult("t", result, schema)
		if (first == nil) != (want == nil) || (second == nil) != (want == nil) {
			t.Fatalf("judge %v then %v, CheckToolResult %v", first, second, want)
		}
		if want != nil && (first.Error() != want.Error() || second.Error() != want.Error()) {
			t.Fatalf("judge %q then %q, CheckToolResult %q", first, second, want)
		}
	})
}

// A judge apart judges every result as CheckToolResult does.
func TestToolResultCheckerApartJudgesAlike(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["temp"],"properties":{"temp":{"type":"number"}}}`)
	apart := ToolResultCheckerApart("weather", schema)
	for _, res := range []string{
		`{"content":[],"structuredContent":{"temp":21}}`,
		`{"content":[],"structuredContent":{"temp":"warm"}}`,
		`{"content":[]}`,
		`{"content":[{"type":"text","text":"down"}],"isError":true}`,
		`{"resultType":"task","taskId":"t1"}`,
	} {
		got, want := apart(json.RawMessage(res)), CheckToolResult("weather", json.RawMessage(res), schema)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: apart %v, CheckToolResult %v", res, got, want)
		}
	}
}
