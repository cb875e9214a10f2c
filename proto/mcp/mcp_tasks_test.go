package mcp

import (
	"strings"
	"testing"
	"time"
)

func TestDecodeTaskHandleGenerations(t *testing.T) {
	v2 := `{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":500,"ttlMs":null}`
	task, g, err := DecodeTaskHandle([]byte(v2))
	if err != nil || g != TasksV2 || task.TaskID != "t1" || task.Interval() != 500*time.Millisecond {
		t.Fatalf("v2: %+v %v %v", task, g, err)
	}
	v1 := `{"task":{"taskId":"t2","status":"working","ttl":300000,"pollInterval":1000,"statusMessage":"Gathering sources..."}}`
	task, g, err = DecodeTaskHandle([]byte(v1))
	if err != nil || g != TasksV1 || task.StatusMessage != "Gathering sources..." || task.Interval() != time.Second {
		t.Fatalf("v1: %+v %v %v", task, g, err)
	}
	for _, plain := range []string{`{"content":[]}`, `{"resultType":"complete"}`, `[]`, `{"task":"x"}`,
		`{"content":[{"type":"text","text":"hi"}],"task":{"title":"a tool's own member"}}`} {
		if _, g, err := DecodeTaskHandle([]byte(plain)); g != TasksNone || err != nil {
			t.Fatalf("%s: %v %v", plain, g, err)
		}
	}
	if _, _, err := DecodeTaskHandle([]byte(`{"resultType":"task","status":"working"}`)); err == nil {
		t.Fatal("a handle without taskId decoded")
	}
	// Names spelled with escapes are the same names.
	for _, escaped := range []string{`{"resultType":"t\u0061sk","taskId":"t3","status":"working"}`, `{"t\u0061sk":{"taskId":"t3","status":"working"}}`} {
		if task, g, err := DecodeTaskHandle([]byte(escaped)); err != nil || g == TasksNone || task.TaskID != "t3" {
			t.Fatalf("%s: %+v %v %v", escaped, task, g, err)
		}
	}
}

func TestTaskIntervalBounded(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{``, DefaultPollInterval},
		{`,"pollIntervalMs":-5`, DefaultPollInterval},
		{`,"pollIntervalMs":0`, MinPollInterval},
		{`,"pollIntervalMs":1`, MinPollInterval},
		{`,"pollIntervalMs":1e300`, MaxPollInterval},
		{`,"pollIntervalMs":250`, 250 * time.Millisecond},
		{`,"pollInterval":2000`, 2 * time.Second},
		{`,"pollIntervalMs":"500"`, DefaultPollInterval},
		{`,"pollIntervalMs":{"ms":1}`, DefaultPollInterval},
		{`,"pollIntervalMs":12.5,"ttlMs":"1h"`, 12500 * time.Microsecond},
	} {
		task, err := DecodeTask([]byte(`{"taskId":"a","status":"working"` + tc.in + `}`))
		if err != nil || task.Interval() != tc.want {
			t.Errorf("%s: %v %v, want %v", tc.in, task.Interval(), err, tc.want)
		}
	}
}

func TestTaskStatusTerminal(t *testing.T) {
	if !TaskFailed.Terminal() || TaskInputRequired.Terminal() || TaskStatus("paused").Known() {
		t.Fatal("status predicates")
	}
	if RelatedTaskID([]byte(`{"io.modelcontextprotocol/related-task":{"taskId":"z"}}`)) != "z" {
		t.Fatal("related task")
	}
}

// FuzzDecodeTask: no input panics the task decoders; an accepted task
// names its id and status and polls within the bounds.
func FuzzDecodeTask(f *testing.F) {
	for _, s := range []string{
		`{"resultType":"task","taskId":"t","status":"working","pollIntervalMs":500}`,
		`{"task":{"taskId":"t","status":"input_required","pollInterval":-1}}`,
		`{"taskId":"t","status":"completed","result":{"content":[]},"inputRequests":{"a":{"method":""}}}`,
		`{"taskId":"t","status":"failed","error":{"code":-1,"message":"x"}}`, `[]`, `{"task":`,
		`{"TASK":{"taskId":"t","status":"working"}}`, "{\"ta\u017fk\":{\"taskId\":\"t\",\"status\":\"working\"}}",
		"{\"tas\u212a\":{\"taskId\":\"t\",\"status\":\"working\"}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, decode := range []func() (Task, error){
			func() (Task, error) { return DecodeTask(b) },
			func() (Task, error) { task, _, err := DecodeTaskHandle(b); return task, err },
		} {
			task, err := decode()
			if err != nil || task.TaskID == "" {
				continue
			}
			if task.Status == "" {
				t.Fatalf("task without status accepted: %s", b)
			}
			if d := task.Interval(); d < MinPollInterval || d > MaxPollInterval {
				t.Fatalf("interval %v out of bounds: %s", d, b)
			}
		}
		if _, g, _ := probeTaskHandle(b); g != TasksNone && !mayNameTask(b) {
			t.Fatalf("a handle the quick look passes over: %s", b)
		}
		_ = RelatedTaskID(b)
		_ = ToolTaskSupport(b)
	})
}

// BenchmarkDecodeTaskHandleLargeResult reads a 10 MiB tools/call result of
// text, as the Tasks view does for every result it sees.
func BenchmarkDecodeTaskHandleLargeResult(b *testing.B) {
	result := []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("0123456789abcdef", 10<<16) + `"}]}`)
	b.SetBytes(int64(len(result)))
	for b.Loop() {
		if _, g, _ := DecodeTaskHandle(result); g != TasksNone {
			b.Fatal(g)
		}
	}
}
